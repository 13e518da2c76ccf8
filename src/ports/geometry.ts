/**
 * Screen geometry every capability shares: points and rectangles in screen points, origin
 * top-left of the primary display.
 *
 * @module
 */

/** A point in screen points. */
export interface Point {
  x: number;
  y: number;
}

/** A rectangle in screen points. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}
