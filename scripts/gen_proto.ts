/**
 * Regenerates the TypeScript of the cua.env.v1 protos (proto/ → src/transports/network/grpc/gen/)
 * with buf and protoc-gen-es from npm, at pinned versions. The output is committed, so
 * builds and tests never run this; run it after editing a .proto file:
 *
 *     deno run -A scripts/gen_proto.ts
 *
 * protoc-gen-es must match the @bufbuild/protobuf runtime pinned in deno.json.
 *
 * @module
 */
import { fileURLToPath } from "node:url";

const BUF = "@bufbuild/buf@1.75.0";
const PROTOC_GEN_ES = "@bufbuild/protoc-gen-es@2.17.0";
const protoDir = fileURLToPath(new URL("../proto", import.meta.url));

const generate = await new Deno.Command("npx", {
  args: ["--yes", `--package=${BUF}`, `--package=${PROTOC_GEN_ES}`, "--", "buf", "generate"],
  cwd: protoDir,
  stdout: "inherit",
  stderr: "inherit",
}).output();
if (!generate.success) {
  console.error(`gen_proto: buf generate failed (exit ${generate.code})`);
  Deno.exit(generate.code || 1);
}
console.log("gen_proto: wrote src/transports/network/grpc/gen/cua/env/v1/{common,computer,driver}_pb.ts");
