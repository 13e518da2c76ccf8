/**
 * libc: System V shared memory for MIT-SHM, plus malloc/free for native-owned buffers.
 *
 * @module
 */
import { openLibrary } from "../_open.ts";

/** libc symbols. */
export const LIBC_SYMBOLS = {
  // int shmget(key_t key, size_t size, int shmflg)
  shmget: { parameters: ["i32", "usize", "i32"], result: "i32" },
  // void *shmat(int shmid, const void *shmaddr, int shmflg)
  shmat: { parameters: ["i32", "pointer", "i32"], result: "pointer" },
  // int shmdt(const void *shmaddr)
  shmdt: { parameters: ["pointer"], result: "i32" },
  // int shmctl(int shmid, int cmd, struct shmid_ds *buf)
  shmctl: { parameters: ["i32", "i32", "pointer"], result: "i32" },
  // void *calloc(size_t nmemb, size_t size)
  calloc: { parameters: ["usize", "usize"], result: "pointer" },
  // void free(void *ptr)
  free: { parameters: ["pointer"], result: "void" },
} as const satisfies Deno.ForeignLibraryInterface;

/** libc, opened on first use. */
export const libc = openLibrary("c", ["libc.so.6"], LIBC_SYMBOLS, "libc6");

/** Constants from <sys/ipc.h> and <sys/shm.h>. */
export const IPC = { PRIVATE: 0, CREAT: 0o1000, RMID: 0 } as const;
