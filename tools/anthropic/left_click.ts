/**
 * `left_click` of `computer_toolset_20260801`, on the driver's click ladder (see _click_member.ts).
 *
 * @module
 */
import { clickMember } from "./_click_member.ts";

export default clickMember(
  "left_click",
  "left",
  1,
  "Click the left mouse button at the specified (x, y) pixel coordinate, or the current cursor position if `coordinate` is omitted. The result says what the driver read back.",
);
