/*
 * The PNG benchmark's native peer: captures the root window with XShmGetImage and
 * encodes it with libpng (8-bit RGB, filter Up on every row, zlib level from argv,
 * default strategy) into memory, as a C screenshot tool would. Prints JSON:
 * {"width", "height", "capture_ms": [...], "encode_ms": [...], "cpu_ms": [...], "bytes"}
 * (cpu_ms: the process's CPU time per frame) and, when a path is given, writes the last
 * PNG there.
 *
 *     cc -O2 -o png_peer png_peer.c -lpng -lXext -lX11
 *     ./png_peer <runs> <zlib level> [out.png]
 */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XShm.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <time.h>

struct sink {
  unsigned char *data;
  size_t size, cap;
};

static void sink_write(png_structp png, png_bytep bytes, png_size_t n) {
  struct sink *s = png_get_io_ptr(png);
  if (s->size + n > s->cap) {
    while (s->size + n > s->cap) s->cap = s->cap ? s->cap * 2 : 1 << 20;
    s->data = realloc(s->data, s->cap);
  }
  memcpy(s->data + s->size, bytes, n);
  s->size += n;
}

static void sink_flush(png_structp png) { (void)png; }

static double clock_ms(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static double now_ms(void) { return clock_ms(CLOCK_MONOTONIC); }

/* Encodes BGRX pixels (ZPixmap, 32 bpp) as RGB with filter Up; returns the PNG size. */
static size_t encode(XImage *image, int level, unsigned char *row, struct sink *out) {
  out->size = 0;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png_create_info_struct(png);
  if (setjmp(png_jmpbuf(png))) {
    fprintf(stderr, "libpng failed\n");
    exit(1);
  }
  png_set_write_fn(png, out, sink_write, sink_flush);
  png_set_compression_level(png, level);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_UP);
  png_set_IHDR(png, info, image->width, image->height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
  png_write_info(png, info);
  for (int y = 0; y < image->height; y++) {
    const unsigned char *src = (unsigned char *)image->data + (size_t)y * image->bytes_per_line;
    for (int x = 0; x < image->width; x++) {
      row[x * 3] = src[x * 4 + 2];
      row[x * 3 + 1] = src[x * 4 + 1];
      row[x * 3 + 2] = src[x * 4];
    }
    png_write_row(png, row);
  }
  png_write_end(png, NULL);
  png_destroy_write_struct(&png, &info);
  return out->size;
}

int main(int argc, char **argv) {
  int runs = argc > 1 ? atoi(argv[1]) : 15;
  int level = argc > 2 ? atoi(argv[2]) : 2;
  Display *display = XOpenDisplay(NULL);
  if (!display) {
    fprintf(stderr, "cannot open display\n");
    return 1;
  }
  int screen = DefaultScreen(display);
  Window root = RootWindow(display, screen);
  int width = DisplayWidth(display, screen), height = DisplayHeight(display, screen);
  XShmSegmentInfo shm;
  XImage *image = XShmCreateImage(display, DefaultVisual(display, screen), DefaultDepth(display, screen),
                                  ZPixmap, NULL, &shm, width, height);
  shm.shmid = shmget(IPC_PRIVATE, (size_t)image->bytes_per_line * image->height, IPC_CREAT | 0600);
  shm.shmaddr = image->data = shmat(shm.shmid, NULL, 0);
  shm.readOnly = False;
  XShmAttach(display, &shm);
  XSync(display, False);
  shmctl(shm.shmid, IPC_RMID, NULL);
  unsigned char *row = malloc((size_t)width * 3);
  struct sink out = {0};
  printf("{\"width\":%d,\"height\":%d,\"level\":%d,\"capture_ms\":[", width, height, level);
  double *encode_ms = calloc(runs + 1, sizeof(double));
  double *cpu_ms = calloc(runs + 1, sizeof(double));
  size_t bytes = 0;
  for (int i = 0; i <= runs; i++) { /* run 0 is a warm-up */
    double c0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
    double t0 = now_ms();
    XShmGetImage(display, root, image, 0, 0, AllPlanes);
    double t1 = now_ms();
    bytes = encode(image, level, row, &out);
    encode_ms[i] = now_ms() - t1;
    cpu_ms[i] = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
    if (i > 0) printf("%s%.3f", i > 1 ? "," : "", t1 - t0);
  }
  printf("],\"encode_ms\":[");
  for (int i = 1; i <= runs; i++) printf("%s%.3f", i > 1 ? "," : "", encode_ms[i]);
  printf("],\"cpu_ms\":[");
  for (int i = 1; i <= runs; i++) printf("%s%.3f", i > 1 ? "," : "", cpu_ms[i]);
  printf("],\"bytes\":%zu}\n", bytes);
  if (argc > 3) {
    FILE *f = fopen(argv[3], "wb");
    fwrite(out.data, 1, out.size, f);
    fclose(f);
  }
  XShmDetach(display, &shm);
  shmdt(shm.shmaddr);
  XCloseDisplay(display);
  return 0;
}
