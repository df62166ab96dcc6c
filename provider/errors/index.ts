export { ShippingConfigError } from "./configError";
export { ShippingConnectionError } from "./connectionError";
export { ShippingRequestError } from "./requestError";
export type { ApiErrorDetail, RedactedRequest, ResponseInfo } from "./requestInfo";
export { ShippingResponseError } from "./responseError";
export { ShippingError } from "./shippingError";
export { ShippingUnconfirmedWriteError } from "./unconfirmedWriteError";
