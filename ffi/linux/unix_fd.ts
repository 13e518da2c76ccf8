/**
 * libc for a Unix-socket client that passes file descriptors (the Wayland wire client):
 * socket/connect, sendmsg/recvmsg with SCM_RIGHTS ancillary data, poll, and anonymous shared
 * memory (memfd_create, ftruncate, mmap) for the buffers a compositor fills or reads.
 * Deno's own sockets cannot send or receive descriptors.
 *
 * @module
 */
import { openLibrary } from "../_open.ts";

/** The symbols. */
export const UNIX_FD_SYMBOLS = {
  // int socket(int domain, int type, int protocol)
  socket: { parameters: ["i32", "i32", "i32"], result: "i32" },
  // int connect(int fd, const struct sockaddr *addr, socklen_t len)
  connect: { parameters: ["i32", "buffer", "u32"], result: "i32" },
  // ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
  sendmsg: { parameters: ["i32", "buffer", "i32"], result: "isize" },
  // ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
  recvmsg: { parameters: ["i32", "buffer", "i32"], result: "isize" },
  // int poll(struct pollfd *fds, nfds_t nfds, int timeout): on a worker thread, so waiting blocks nothing
  poll: { parameters: ["buffer", "u64", "i32"], result: "i32", nonblocking: true },
  // int close(int fd)
  close: { parameters: ["i32"], result: "i32" },
  // int memfd_create(const char *name, unsigned int flags)
  memfd_create: { parameters: ["buffer", "u32"], result: "i32" },
  // int ftruncate(int fd, off_t length)
  ftruncate: { parameters: ["i32", "i64"], result: "i32" },
  // void *mmap(void *addr, size_t length, int prot, int flags, int fd, off_t offset)
  mmap: { parameters: ["pointer", "usize", "i32", "i32", "i32", "i64"], result: "pointer" },
  // int munmap(void *addr, size_t length)
  munmap: { parameters: ["pointer", "usize"], result: "i32" },
  // ssize_t read(int fd, void *buf, size_t count)
  read: { parameters: ["i32", "buffer", "usize"], result: "isize" },
  // ssize_t write(int fd, const void *buf, size_t count)
  write: { parameters: ["i32", "buffer", "usize"], result: "isize" },
  // int pipe2(int fds[2], int flags)
  pipe2: { parameters: ["buffer", "i32"], result: "i32" },
  // int *__errno_location(void)
  __errno_location: { parameters: [], result: "pointer" },
} as const satisfies Deno.ForeignLibraryInterface;

/** libc, opened on first use. */
export const unixFd = openLibrary("c", ["libc.so.6"], UNIX_FD_SYMBOLS, "libc6");

/** Constants of <sys/socket.h>, <poll.h>, <sys/mman.h> and <fcntl.h> (Linux, every architecture Deno runs on). */
export const FD = {
  AF_UNIX: 1,
  SOCK_STREAM: 1,
  SOCK_CLOEXEC: 0o2000000,
  MSG_DONTWAIT: 0x40,
  MSG_CMSG_CLOEXEC: 0x40000000,
  SOL_SOCKET: 1,
  SCM_RIGHTS: 1,
  POLLIN: 1,
  POLLHUP: 0x10,
  MFD_CLOEXEC: 1,
  PROT_READ_WRITE: 3,
  MAP_SHARED: 1,
  O_CLOEXEC: 0o2000000,
  O_NONBLOCK: 0o4000,
  EAGAIN: 11,
  EINTR: 4,
} as const;

/** The calling thread's errno. */
export function errno(): number {
  const location = unixFd.symbols.__errno_location();
  return location ? new Deno.UnsafePointerView(location).getInt32(0) : 0;
}
