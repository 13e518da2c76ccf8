/** The driver's semantic version. Bumped by hand on release. */
export const VERSION = "0.1.0";
