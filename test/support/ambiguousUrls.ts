/**
 * Callback URLs that look like one HTTPS URL but are read differently by RFC 3986 and by the URL parser of
 * HTTP clients (issue 14), each with the part of the reason the refusal must give and the URL it must suggest
 * (undefined: no safe fix can be derived). Both the simulator's 422 and the provider's preview refuse them.
 */
export const AMBIGUOUS_URLS: ReadonlyArray<readonly [url: string, reason: RegExp, fix: string | undefined]> =
  [
    ["https:example.com", /not followed by "\/\/"/, "https://example.com/"],
    ["https:/x.com", /not followed by "\/\/"/, "https://x.com/"],
    ["https:///x.com", /no host between "https:\/\/" and "\/"/, "https://x.com/"],
    ["https:\\\\x.com", /"\\" is read as "\/"/, "https://x.com/"],
    ["https://x.com\\hook", /"\\" is read as "\/"/, "https://x.com/hook"],
    ["https://x.com/a\\b", /"\\" is read as "\/"/, "https://x.com/a/b"],
    ["https://%65xample.com/hook", /host "%65xample.com" is percent-encoded/, "https://example.com/hook"],
    ["https://ex\u00adample.com/hook", /U\+00AD/, "https://example.com/hook"],
    ["https://example.com/ho\u0085ok", /U\+0085/, "https://example.com/hook"],
    ["https://exa\u200bmple.com/hook", /U\+200B/, "https://example.com/hook"],
    ["https://user:pw@example.com/hook", /user name or password/, "https://example.com/hook"],
    ["https://user@example.com/hook", /user name or password/, "https://example.com/hook"],
    ["https://example.com/hook#part", /fragment/, "https://example.com/hook"],
    ["https://example.com/a/../hook", /"\." or "\.\." segment/, "https://example.com/hook"],
    ["https://example.com/%2e%2e/hook", /%2e encodes "\."/, "https://example.com/hook"],
    ["https://example.com/%7euser", /%7e encodes "~"/, "https://example.com/~user"],
    ["https://0x7f.1/hook", /host "0x7f.1" is called as "127.0.0.1"/, "https://127.0.0.1/hook"],
    ["https://example.com/caf\u00e9", /U\+00E9/, "https://example.com/caf%c3%a9"],
    ["https://b\u00fccher.example/", /U\+00FC/, "https://xn--bcher-kva.example/"],
    ["https://example.com/%zz", /does not start a percent-encoding/, undefined],
    ["https://example.com/a?b'c", /query "\?b'c" is called as "\?b%27c"/, "https://example.com/a?b%27c"],
    ["https://example.com:/hook", /port "" is not a number/, "https://example.com/hook"],
    ["https://example.com:99999/hook", /port "99999" is not a number/, undefined],
    ["https://a..b/hook", /not a valid host name/, undefined],
  ];
