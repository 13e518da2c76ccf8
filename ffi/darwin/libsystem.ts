/**
 * libSystem: process information (libproc), the dynamic linker and sysctl.
 *
 * @module
 */
import { openLibrary } from "../_open.ts";

/** libSystem symbols used by the driver. */
export const SYSTEM_SYMBOLS = {
  // int proc_listallpids(void *buffer, int buffersize)   (count of pids; with NULL, how many exist)
  proc_listallpids: { parameters: ["buffer", "i32"], result: "i32" },
  // int proc_name(int pid, void *buffer, uint32_t buffersize)   (bytes written; 0 on failure)
  proc_name: { parameters: ["i32", "buffer", "u32"], result: "i32" },
  // int proc_pidpath(int pid, void *buffer, uint32_t buffersize)   (bytes written; 0 on failure)
  proc_pidpath: { parameters: ["i32", "buffer", "u32"], result: "i32" },
  // int proc_pidinfo(int pid, int flavor, uint64_t arg, void *buffer, int buffersize)
  proc_pidinfo: { parameters: ["i32", "i32", "u64", "buffer", "i32"], result: "i32" },
  // void *dlsym(void *handle, const char *symbol)   (the address of a data symbol, e.g. kCFTypeArrayCallBacks)
  dlsym: { parameters: ["pointer", "buffer"], result: "pointer" },
  // int sysctlbyname(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen)
  sysctlbyname: { parameters: ["buffer", "buffer", "buffer", "pointer", "u64"], result: "i32" },
  // int sysctl(int *name, u_int namelen, void *oldp, size_t *oldlenp, void *newp, size_t newlen)
  sysctl: { parameters: ["buffer", "u32", "buffer", "buffer", "pointer", "u64"], result: "i32" },
  // uint64_t clock_gettime_nsec_np(clockid_t clock_id)   (macOS 10.12+)
  clock_gettime_nsec_np: { parameters: ["u32"], result: "u64" },
  // int kill(pid_t pid, int sig)   (0, or -1 with errno set)
  kill: { parameters: ["i32", "i32"], result: "i32" },
  // uid_t getuid(void)
  getuid: { parameters: [], result: "u32" },
  // int pthread_main_np(void)   (1 on the process's main thread, 0 elsewhere)
  pthread_main_np: { parameters: [], result: "i32" },
} as const satisfies Deno.ForeignLibraryInterface;

/** Signal numbers (<sys/signal.h>). */
export const Signal = { SIGKILL: 9, SIGTERM: 15 } as const;

/** RTLD_DEFAULT on macOS (<dlfcn.h>): search every loaded image. */
export const RTLD_DEFAULT = -2n;

/** proc_pidinfo flavors (<sys/proc_info.h>). */
export const ProcPidInfo = { TBSDINFO: 3 } as const;

/**
 * struct proc_bsdinfo (<sys/proc_info.h>), 136 bytes: pbi_flags @0, pbi_status @4,
 * pbi_pid @12, pbi_ppid @16, pbi_uid @20, pbi_comm[16] @48, pbi_name[32] @64,
 * pbi_start_tvsec (uint64) @120, pbi_start_tvusec (uint64) @128.
 */
export const ProcBsdInfo = {
  size: 136,
  status: 4,
  pid: 12,
  ppid: 16,
  uid: 20,
  comm: 48,
  name: 64,
  startSec: 120,
  startUsec: 128,
} as const;

/** pbi_status values (<sys/proc.h>). */
export const ProcStatus = { SIDL: 1, SRUN: 2, SSLEEP: 3, SSTOP: 4, SZOMB: 5 } as const;

/** sysctl MIB names (<sys/sysctl.h>). */
export const Sysctl = { CTL_KERN: 1, KERN_ARGMAX: 8, KERN_PROCARGS2: 49 } as const;

/** clockid_t values (<time.h>): CLOCK_MONOTONIC counts from boot, sleep included. */
export const ClockId = { CLOCK_REALTIME: 0, CLOCK_MONOTONIC: 6, CLOCK_UPTIME_RAW: 8 } as const;

/** PROC_PIDPATHINFO_MAXSIZE (<libproc.h>). */
export const PROC_PIDPATHINFO_MAXSIZE = 4096;

/** libSystem, opened on first use. */
export const libSystem = openLibrary("System", ["/usr/lib/libSystem.B.dylib"], SYSTEM_SYMBOLS);
