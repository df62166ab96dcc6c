/**
 * Issue 36 item 3: a save that fails (a full disk, a failed fsync) removes its temporary file at once, rather
 * than leaving it beside the data file until the next start; the data file keeps the last good state. The
 * failures are injected at the file-system seam of StateWriter (SaveFileSystem) over a real directory.
 */
import { readdirSync, readFileSync } from "node:fs";
import { type FileHandle, mkdtemp, open, rename, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type SaveFileSystem, StateWriter } from "../../simulator/persistence";

/** Which step of a save fails, and how. */
type Step = "write" | "sync" | "close" | "rename";

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: injected`), { code });
}

/** node:fs/promises, except that `step` of every save fails with `code` (a write first writes part). */
function failing(step: Step, code: string): SaveFileSystem {
  return {
    open: (async (path: string, flags: string, mode: number) => {
      const handle = await open(path, flags, mode);
      return new Proxy(handle, {
        get(target, name) {
          if (name === "writeFile" && step === "write")
            return async (text: string) => {
              await target.writeFile(text.slice(0, 10), "utf8");
              throw errno(code);
            };
          if (name === "sync" && step === "sync") return async () => Promise.reject(errno(code));
          if (name === "close" && step === "close")
            return async () => {
              await target.close();
              throw errno(code);
            };
          const value = Reflect.get(target, name, target) as unknown;
          return typeof value === "function" ? value.bind(target) : value;
        },
      }) as FileHandle;
    }) as SaveFileSystem["open"],
    rename: (async (from, to) => {
      if (step === "rename") throw errno(code);
      return rename(from, to);
    }) as SaveFileSystem["rename"],
    unlink,
  };
}

describe("a failed save removes its temporary file", () => {
  it.each<[Step, string]>([
    ["write", "ENOSPC"],
    ["sync", "EIO"],
    ["close", "ENOSPC"],
    ["rename", "EXDEV"],
  ])(
    "when the %s fails (%s): the save rejects, the directory holds only the last good file",
    async (step, code) => {
      const dir = await mkdtemp(join(tmpdir(), "sim-save-"));
      const file = join(dir, "state.json");
      let nextId = 1;
      await new StateWriter(file, () => ({ nextId, shops: {} })).save();
      nextId = 2;
      const writer = new StateWriter(file, () => ({ nextId, shops: {} }), failing(step, code));
      await expect(writer.save()).rejects.toMatchObject({ code });
      expect(readdirSync(dir)).toEqual(["state.json"]);
      expect(JSON.parse(readFileSync(file, "utf8")).nextId).toBe(1);
    },
  );
});
