// A compare tab's client (page `compare`), typed by src/shared/protocols/compare.ts.
import type { ComparePush, CompareProtocol } from "../../../src/shared/protocols/compare";
import { type PageClient, pushCheck, pushListener, sendMessage, sendRequest } from "./pageClient";

type Client = PageClient<CompareProtocol>;

export const post: Client["post"] = sendMessage;
export const request = sendRequest as Client["request"];
export const onPush: Client["onPush"] = /* @__PURE__ */ pushListener(
  pushCheck<ComparePush>({
    compareState: (m) => m.race === null || (typeof m.race === "object" && Array.isArray((m.race as { members?: unknown }).members)),
  }),
);
