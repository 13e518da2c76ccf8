/**
 * advapi32: process tokens, for the integrity level that decides whether Windows lets
 * our input reach a window (User Interface Privilege Isolation).
 *
 * @module
 */
import { openLibrary } from "../_open.ts";

/** advapi32 symbols used by the driver. */
export const ADVAPI32_SYMBOLS = {
  // BOOL OpenProcessToken(HANDLE ProcessHandle, DWORD DesiredAccess, PHANDLE TokenHandle)
  OpenProcessToken: { parameters: ["pointer", "u32", "buffer"], result: "i32" },
  // BOOL GetTokenInformation(HANDLE TokenHandle, TOKEN_INFORMATION_CLASS TokenInformationClass,
  //   LPVOID TokenInformation, DWORD TokenInformationLength, PDWORD ReturnLength)
  GetTokenInformation: { parameters: ["pointer", "u32", "buffer", "u32", "buffer"], result: "i32" },
  // PDWORD GetSidSubAuthority(PSID pSid, DWORD nSubAuthority)
  GetSidSubAuthority: { parameters: ["pointer", "u32"], result: "pointer" },
  // PUCHAR GetSidSubAuthorityCount(PSID pSid)
  GetSidSubAuthorityCount: { parameters: ["pointer"], result: "pointer" },
  // BOOL GetUserNameW(LPWSTR lpBuffer, LPDWORD pcbBuffer)
  GetUserNameW: { parameters: ["buffer", "buffer"], result: "i32" },
  // BOOL ConvertSidToStringSidW(PSID Sid, LPWSTR *StringSid)
  ConvertSidToStringSidW: { parameters: ["pointer", "buffer"], result: "i32" },
  // BOOL ConvertStringSecurityDescriptorToSecurityDescriptorW(LPCWSTR StringSecurityDescriptor,
  //   DWORD StringSDRevision, PSECURITY_DESCRIPTOR *SecurityDescriptor, PULONG SecurityDescriptorSize)
  ConvertStringSecurityDescriptorToSecurityDescriptorW: {
    parameters: ["buffer", "u32", "buffer", "pointer"],
    result: "i32",
  },
  // BOOL ConvertSecurityDescriptorToStringSecurityDescriptorW(PSECURITY_DESCRIPTOR SecurityDescriptor,
  //   DWORD RequestedStringSDRevision, SECURITY_INFORMATION SecurityInformation, LPWSTR *StringSecurityDescriptor,
  //   PULONG StringSecurityDescriptorLen)
  ConvertSecurityDescriptorToStringSecurityDescriptorW: {
    parameters: ["pointer", "u32", "u32", "buffer", "pointer"],
    result: "i32",
  },
  // BOOL GetSecurityDescriptorDacl(PSECURITY_DESCRIPTOR pSecurityDescriptor, LPBOOL lpbDaclPresent,
  //   PACL *pDacl, LPBOOL lpbDaclDefaulted)
  GetSecurityDescriptorDacl: { parameters: ["pointer", "buffer", "buffer", "buffer"], result: "i32" },
  // DWORD SetSecurityInfo(HANDLE handle, SE_OBJECT_TYPE ObjectType, SECURITY_INFORMATION SecurityInfo,
  //   PSID psidOwner, PSID psidGroup, PACL pDacl, PACL pSacl)
  SetSecurityInfo: {
    parameters: ["pointer", "u32", "u32", "pointer", "pointer", "pointer", "pointer"],
    result: "u32",
  },
  // DWORD GetNamedSecurityInfoW(LPCWSTR pObjectName, SE_OBJECT_TYPE ObjectType, SECURITY_INFORMATION SecurityInfo,
  //   PSID *ppsidOwner, PSID *ppsidGroup, PACL *ppDacl, PACL *ppSacl, PSECURITY_DESCRIPTOR *ppSecurityDescriptor)
  GetNamedSecurityInfoW: {
    parameters: ["buffer", "u32", "u32", "buffer", "pointer", "pointer", "pointer", "buffer"],
    result: "u32",
  },
  // DWORD GetSecurityInfo(HANDLE handle, SE_OBJECT_TYPE ObjectType, SECURITY_INFORMATION SecurityInfo,
  //   PSID *ppsidOwner, PSID *ppsidGroup, PACL *ppDacl, PACL *ppSacl, PSECURITY_DESCRIPTOR *ppSecurityDescriptor)
  GetSecurityInfo: {
    parameters: ["pointer", "u32", "u32", "pointer", "pointer", "pointer", "pointer", "buffer"],
    result: "u32",
  },
  // LSTATUS RegGetValueW(HKEY hkey, LPCWSTR lpSubKey, LPCWSTR lpValue, DWORD dwFlags, LPDWORD pdwType,
  //   PVOID pvData, LPDWORD pcbData)
  RegGetValueW: {
    parameters: ["pointer", "buffer", "buffer", "u32", "buffer", "buffer", "buffer"],
    result: "i32",
  },
  // LSTATUS RegOpenKeyExW(HKEY hKey, LPCWSTR lpSubKey, DWORD ulOptions, REGSAM samDesired, PHKEY phkResult)
  RegOpenKeyExW: { parameters: ["pointer", "buffer", "u32", "u32", "buffer"], result: "i32" },
  // LSTATUS RegEnumKeyExW(HKEY hKey, DWORD dwIndex, LPWSTR lpName, LPDWORD lpcchName, LPDWORD lpReserved,
  //   LPWSTR lpClass, LPDWORD lpcchClass, PFILETIME lpftLastWriteTime)
  RegEnumKeyExW: {
    parameters: ["pointer", "u32", "buffer", "buffer", "pointer", "pointer", "pointer", "pointer"],
    result: "i32",
  },
  // LSTATUS RegCloseKey(HKEY hKey)
  RegCloseKey: { parameters: ["pointer"], result: "i32" },
} as const satisfies Deno.ForeignLibraryInterface;

/** advapi32.dll, opened on first use. */
export const advapi32 = openLibrary("advapi32", ["advapi32.dll"], ADVAPI32_SYMBOLS);

/** TOKEN_QUERY access right. */
export const TOKEN_QUERY = 0x0008;
/** TOKEN_INFORMATION_CLASS values. */
export const TOKEN_INFORMATION = { TokenIntegrityLevel: 25, TokenElevation: 20 } as const;
/** Mandatory integrity levels (the last sub-authority of the label SID). */
export const INTEGRITY = {
  UNTRUSTED: 0,
  LOW: 0x1000,
  MEDIUM: 0x2000,
  MEDIUM_PLUS: 0x2100,
  HIGH: 0x3000,
  SYSTEM: 0x4000,
} as const;
/** Predefined registry roots (sign-extended HKEY values). */
export const HKEY = { CURRENT_USER: 0xffffffff80000001n, LOCAL_MACHINE: 0xffffffff80000002n } as const;
/** RegGetValue flags. */
export const RRF = { RT_REG_SZ: 0x2, RT_REG_EXPAND_SZ: 0x4, RT_ANY: 0xffff } as const;
/** Registry access rights. */
export const KEY_READ = 0x20019;
/** Registry status codes. */
export const REG_ERROR = { SUCCESS: 0, FILE_NOT_FOUND: 2, MORE_DATA: 234, NO_MORE_ITEMS: 259 } as const;
/** TOKEN_INFORMATION_CLASS TokenUser. */
export const TOKEN_USER = 1;
/** SDDL_REVISION_1. */
export const SDDL_REVISION_1 = 1;
/** SE_OBJECT_TYPE SE_FILE_OBJECT. */
export const SE_FILE_OBJECT = 1;
/** OWNER_SECURITY_INFORMATION. */
export const OWNER_SECURITY_INFORMATION = 0x1;
/** SE_OBJECT_TYPE SE_KERNEL_OBJECT. */
export const SE_KERNEL_OBJECT = 6;
/** SECURITY_INFORMATION bits. */
export const SECURITY_INFORMATION = { DACL: 0x4, PROTECTED_DACL: 0x80000000 } as const;
/** Access rights to open a pipe for changing its DACL (WRITE_DAC | READ_CONTROL). */
export const WRITE_DAC_ACCESS = 0x00040000 | 0x00020000;
