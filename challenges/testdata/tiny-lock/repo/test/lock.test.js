import { test } from "node:test";
test("claim", () => {});
