/**
 * iphlpapi: the TCP table with owning process ids (which process listens on a port).
 *
 * @module
 */
import { openLibrary } from "../_open.ts";

/** iphlpapi symbols used by the driver. */
export const IPHLPAPI_SYMBOLS = {
  // DWORD GetExtendedTcpTable(PVOID pTcpTable, PDWORD pdwSize, BOOL bOrder, ULONG ulAf,
  //   TCP_TABLE_CLASS TableClass, ULONG Reserved)
  GetExtendedTcpTable: { parameters: ["buffer", "buffer", "i32", "u32", "u32", "u32"], result: "u32" },
} as const satisfies Deno.ForeignLibraryInterface;

/** iphlpapi.dll, opened on first use. */
export const iphlpapi = openLibrary("iphlpapi", ["iphlpapi.dll"], IPHLPAPI_SYMBOLS);

/** Address families. */
export const AF = { INET: 2, INET6: 23 } as const;
/** TCP_TABLE_OWNER_PID_LISTENER. */
export const TCP_TABLE_OWNER_PID_LISTENER = 3;
/** ERROR_INSUFFICIENT_BUFFER. */
export const ERROR_INSUFFICIENT_BUFFER = 122;
/**
 * MIB_TCPTABLE_OWNER_PID: dwNumEntries@0, rows from 4; MIB_TCPROW_OWNER_PID (24 bytes): dwState@0
 * dwLocalAddr@4 dwLocalPort@8 (network order in the low 16 bits) dwRemoteAddr@12 dwRemotePort@16 dwOwningPid@20.
 * The IPv6 row (MIB_TCP6ROW_OWNER_PID, 56 bytes): ucLocalAddr@0 dwLocalScopeId@16 dwLocalPort@20
 * ucRemoteAddr@24 dwRemoteScopeId@40 dwRemotePort@44 dwState@48 dwOwningPid@52.
 */
export const TCP_ROW = {
  v4: { size: 24, port: 8, pid: 20 },
  v6: { size: 56, port: 20, pid: 52 },
} as const;
