/**
 * click.png: the before screenshot with a red crosshair where the click went.
 *
 * @module
 */
import type { Point } from "../../ports/geometry.ts";
import type { RawImage } from "../../ports/screen.ts";

/** Half-length of each crosshair arm, in pixels. */
const ARM = 14;
/** Line thickness, in pixels. */
const THICKNESS = 3;
/** Radius of the ring around the point. */
const RING = 9;

/**
 * A copy of `image` with a red crosshair and ring centred on `point` (clipped to the
 * image; a point outside it leaves the copy unmarked).
 */
export function drawCrosshair(image: RawImage, point: Point): RawImage {
  const data = image.data.slice();
  const { width, height } = image;
  const cx = Math.round(point.x), cy = Math.round(point.y);
  const paint = (x: number, y: number) => {
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    data.set([255, 0, 0, 255], (y * width + x) * 4);
  };
  const half = Math.floor(THICKNESS / 2);
  for (let d = -ARM; d <= ARM; d++) {
    for (let t = -half; t <= half; t++) {
      paint(cx + d, cy + t);
      paint(cx + t, cy + d);
    }
  }
  for (let dy = -RING - 1; dy <= RING + 1; dy++) {
    for (let dx = -RING - 1; dx <= RING + 1; dx++) {
      const r = Math.hypot(dx, dy);
      if (r >= RING - 1 && r <= RING + 1) paint(cx + dx, cy + dy);
    }
  }
  return { width, height, data };
}
