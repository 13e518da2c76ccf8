/**
 * X keysyms of canonical keys and characters.
 *
 * Characters map the way X defines it: Latin-1 code points are their own keysyms,
 * every other code point U is `0x01000000 | U`, and many also have an older
 * ("legacy") keysym from `<X11/keysymdef.h>` (Greek, Cyrillic, Hebrew, Thai, Kana,
 * Hangul, technical symbols, ...) that national layouts still use. A lookup tries
 * both; a spare keycode is bound to the Unicode one.
 *
 * @module
 */
import type { CanonicalKey } from "../../../../lib/keys/key_names.ts";

/** Keysyms used by name elsewhere. */
export const XK = {
  NoSymbol: 0n,
  BackSpace: 0xff08n,
  Tab: 0xff09n,
  Return: 0xff0dn,
  ISO_Level3_Shift: 0xfe03n,
  Mode_switch: 0xff7en,
  Shift_L: 0xffe1n,
  Shift_R: 0xffe2n,
  Control_L: 0xffe3n,
  Control_R: 0xffe4n,
  Caps_Lock: 0xffe5n,
  Meta_L: 0xffe7n,
  Alt_L: 0xffe9n,
  Alt_R: 0xffean,
  Super_L: 0xffebn,
  Super_R: 0xffecn,
} as const;

/** The keysym of each canonical named key (absent: the key has none on X11). */
export const NAMED_KEYSYMS: Readonly<Partial<Record<CanonicalKey, bigint>>> = {
  Shift: XK.Shift_L,
  ShiftLeft: XK.Shift_L,
  ShiftRight: XK.Shift_R,
  Control: XK.Control_L,
  ControlLeft: XK.Control_L,
  ControlRight: XK.Control_R,
  Alt: XK.Alt_L,
  AltLeft: XK.Alt_L,
  AltRight: XK.Alt_R,
  AltGraph: XK.ISO_Level3_Shift,
  Super: XK.Super_L,
  SuperLeft: XK.Super_L,
  SuperRight: XK.Super_R,
  Fn: 0x100811d0n, // XF86Fn
  Enter: XK.Return,
  Tab: XK.Tab,
  Space: 0x20n,
  Backspace: XK.BackSpace,
  Delete: 0xffffn,
  Escape: 0xff1bn,
  Insert: 0xff63n,
  Home: 0xff50n,
  End: 0xff57n,
  PageUp: 0xff55n, // Prior
  PageDown: 0xff56n, // Next
  ArrowLeft: 0xff51n,
  ArrowUp: 0xff52n,
  ArrowRight: 0xff53n,
  ArrowDown: 0xff54n,
  ContextMenu: 0xff67n, // Menu
  Help: 0xff6an,
  ...Object.fromEntries(Array.from({ length: 24 }, (_, i) => [`F${i + 1}`, 0xffben + BigInt(i)])),
  CapsLock: XK.Caps_Lock,
  NumLock: 0xff7fn,
  ScrollLock: 0xff14n,
  PrintScreen: 0xff61n, // Print
  Pause: 0xff13n,
  ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`Numpad${i}`, 0xffb0n + BigInt(i)])),
  NumpadAdd: 0xffabn,
  NumpadSubtract: 0xffadn,
  NumpadMultiply: 0xffaan,
  NumpadDivide: 0xffafn,
  NumpadDecimal: 0xffaen,
  NumpadEnter: 0xff8dn,
  NumpadEqual: 0xffbdn,
  MediaPlayPause: 0x1008ff14n, // XF86AudioPlay
  MediaStop: 0x1008ff15n,
  MediaTrackNext: 0x1008ff17n,
  MediaTrackPrevious: 0x1008ff16n,
  AudioVolumeUp: 0x1008ff13n,
  AudioVolumeDown: 0x1008ff11n,
  AudioVolumeMute: 0x1008ff12n,
  BrightnessUp: 0x1008ff02n,
  BrightnessDown: 0x1008ff03n,
  Eject: 0x1008ff2cn,
  Power: 0x1008ff2an, // XF86PowerOff
  Sleep: 0x1008ff2fn,
  BrowserBack: 0x1008ff26n,
  BrowserForward: 0x1008ff27n,
  BrowserRefresh: 0x1008ff73n, // XF86Reload
  BrowserHome: 0x1008ff18n, // XF86HomePage
  BrowserSearch: 0x1008ff1bn,
  LaunchMail: 0x1008ff19n,
  LaunchApp1: 0x1008ff33n, // XF86MyComputer
  LaunchApp2: 0x1008ff1dn, // XF86Calculator
};

/**
 * Keys without a keysym of their own, pressed by their evdev keycode (the X keycode
 * is the Linux input code + 8): the ISO key left of Z has whatever symbols the layout
 * puts there.
 */
export const NAMED_EVDEV_KEYCODES: Readonly<Partial<Record<CanonicalKey, number>>> = {
  IntlBackslash: 94, // KEY_102ND
};

// Legacy keysyms by code point, from <X11/keysymdef.h> ("/* U+xxxx */" comments),
// Latin-1 excluded: "codepoint:keysym[,keysym]" in hex.
const LEGACY_TABLE = `
100:3c0 101:3e0 102:1c3 103:1e3 104:1a1 105:1b1 106:1c6 107:1e6 108:2c6 109:2e6 10a:2c5 10b:2e5
10c:1c8 10d:1e8 10e:1cf 10f:1ef 110:1d0 111:1f0 112:3aa 113:3ba 116:3cc 117:3ec 118:1ca 119:1ea
11a:1cc 11b:1ec 11c:2d8 11d:2f8 11e:2ab 11f:2bb 120:2d5 121:2f5 122:3ab 123:3bb 124:2a6 125:2b6
126:2a1 127:2b1 128:3a5 129:3b5 12a:3cf 12b:3ef 12e:3c7 12f:3e7 130:2a9 131:2b9 134:2ac 135:2bc
136:3d3 137:3f3 138:3a2 139:1c5 13a:1e5 13b:3a6 13c:3b6 13d:1a5 13e:1b5 141:1a3 142:1b3 143:1d1
144:1f1 145:3d1 146:3f1 147:1d2 148:1f2 14a:3bd 14b:3bf 14c:3d2 14d:3f2 150:1d5 151:1f5 152:13bc
153:13bd 154:1c0 155:1e0 156:3a3 157:3b3 158:1d8 159:1f8 15a:1a6 15b:1b6 15c:2de 15d:2fe 15e:1aa
15f:1ba 160:1a9 161:1b9 162:1de 163:1fe 164:1ab 165:1bb 166:3ac 167:3bc 168:3dd 169:3fd 16a:3de
16b:3fe 16c:2dd 16d:2fd 16e:1d9 16f:1f9 170:1db 171:1fb 172:3d9 173:3f9 178:13be 179:1ac 17a:1bc
17b:1af 17c:1bf 17d:1ae 17e:1be 192:8f6 2c7:1b7 2d8:1a2 2d9:1ff 2db:1b2 2dd:1bd 385:7ae 386:7a1
388:7a2 389:7a3 38a:7a4 38c:7a7 38e:7a8 38f:7ab 390:7b6 391:7c1 392:7c2 393:7c3 394:7c4 395:7c5
396:7c6 397:7c7 398:7c8 399:7c9 39a:7ca 39b:7cb 39c:7cc 39d:7cd 39e:7ce 39f:7cf 3a0:7d0 3a1:7d1
3a3:7d2 3a4:7d4 3a5:7d5 3a6:7d6 3a7:7d7 3a8:7d8 3a9:7d9 3aa:7a5 3ab:7a9 3ac:7b1 3ad:7b2 3ae:7b3
3af:7b4 3b0:7ba 3b1:7e1 3b2:7e2 3b3:7e3 3b4:7e4 3b5:7e5 3b6:7e6 3b7:7e7 3b8:7e8 3b9:7e9 3ba:7ea
3bb:7eb 3bc:7ec 3bd:7ed 3be:7ee 3bf:7ef 3c0:7f0 3c1:7f1 3c2:7f3 3c3:7f2 3c4:7f4 3c5:7f5 3c6:7f6
3c7:7f7 3c8:7f8 3c9:7f9 3ca:7b5 3cb:7b9 3cc:7b7 3cd:7b8 3ce:7bb 401:6b3 402:6b1 403:6b2 404:6b4
405:6b5 406:6b6 407:6b7 408:6b8 409:6b9 40a:6ba 40b:6bb 40c:6bc 40e:6be 40f:6bf 410:6e1 411:6e2
412:6f7 413:6e7 414:6e4 415:6e5 416:6f6 417:6fa 418:6e9 419:6ea 41a:6eb 41b:6ec 41c:6ed 41d:6ee
41e:6ef 41f:6f0 420:6f2 421:6f3 422:6f4 423:6f5 424:6e6 425:6e8 426:6e3 427:6fe 428:6fb 429:6fd
42a:6ff 42b:6f9 42c:6f8 42d:6fc 42e:6e0 42f:6f1 430:6c1 431:6c2 432:6d7 433:6c7 434:6c4 435:6c5
436:6d6 437:6da 438:6c9 439:6ca 43a:6cb 43b:6cc 43c:6cd 43d:6ce 43e:6cf 43f:6d0 440:6d2 441:6d3
442:6d4 443:6d5 444:6c6 445:6c8 446:6c3 447:6de 448:6db 449:6dd 44a:6df 44b:6d9 44c:6d8 44d:6dc
44e:6c0 44f:6d1 451:6a3 452:6a1 453:6a2 454:6a4 455:6a5 456:6a6 457:6a7 458:6a8 459:6a9 45a:6aa
45b:6ab 45c:6ac 45e:6ae 45f:6af 490:6bd 491:6ad 5d0:ce0 5d1:ce1 5d2:ce2 5d3:ce3 5d4:ce4 5d5:ce5
5d6:ce6 5d7:ce7 5d8:ce8 5d9:ce9 5da:cea 5db:ceb 5dc:cec 5dd:ced 5de:cee 5df:cef 5e0:cf0 5e1:cf1
5e2:cf2 5e3:cf3 5e4:cf4 5e5:cf5 5e6:cf6 5e7:cf7 5e8:cf8 5e9:cf9 5ea:cfa 60c:5ac 61b:5bb 61f:5bf
621:5c1 622:5c2 623:5c3 624:5c4 625:5c5 626:5c6 627:5c7 628:5c8 629:5c9 62a:5ca 62b:5cb 62c:5cc
62d:5cd 62e:5ce 62f:5cf 630:5d0 631:5d1 632:5d2 633:5d3 634:5d4 635:5d5 636:5d6 637:5d7 638:5d8
639:5d9 63a:5da 640:5e0 641:5e1 642:5e2 643:5e3 644:5e4 645:5e5 646:5e6 647:5e7 648:5e8 649:5e9
64a:5ea 64b:5eb 64c:5ec 64d:5ed 64e:5ee 64f:5ef 650:5f0 651:5f1 652:5f2 e01:da1 e02:da2 e03:da3
e04:da4 e05:da5 e06:da6 e07:da7 e08:da8 e09:da9 e0a:daa e0b:dab e0c:dac e0d:dad e0e:dae e0f:daf
e10:db0 e11:db1 e12:db2 e13:db3 e14:db4 e15:db5 e16:db6 e17:db7 e18:db8 e19:db9 e1a:dba e1b:dbb
e1c:dbc e1d:dbd e1e:dbe e1f:dbf e20:dc0 e21:dc1 e22:dc2 e23:dc3 e24:dc4 e25:dc5 e26:dc6 e27:dc7
e28:dc8 e29:dc9 e2a:dca e2b:dcb e2c:dcc e2d:dcd e2e:dce e2f:dcf e30:dd0 e31:dd1 e32:dd2 e33:dd3
e34:dd4 e35:dd5 e36:dd6 e37:dd7 e38:dd8 e39:dd9 e3a:dda e3f:ddf e40:de0 e41:de1 e42:de2 e43:de3
e44:de4 e45:de5 e46:de6 e47:de7 e48:de8 e49:de9 e4a:dea e4b:deb e4c:dec e4d:ded e50:df0 e51:df1
e52:df2 e53:df3 e54:df4 e55:df5 e56:df6 e57:df7 e58:df8 e59:df9 11a8:ed4 11a9:ed5 11aa:ed6 11ab:ed7
11ac:ed8 11ad:ed9 11ae:eda 11af:edb 11b0:edc 11b1:edd 11b2:ede 11b3:edf 11b4:ee0 11b5:ee1 11b6:ee2
11b7:ee3 11b8:ee4 11b9:ee5 11ba:ee6 11bb:ee7 11bc:ee8 11bd:ee9 11be:eea 11bf:eeb 11c0:eec 11c1:eed
11c2:eee 11eb:ef8 11f0:ef9 11f9:efa 2002:aa2 2003:aa1 2004:aa3 2005:aa4 2007:aa5 2008:aa6 2009:aa7
200a:aa8 2012:abb 2013:aaa 2014:aa9 2015:7af 2017:cdf 2018:ad0 2019:ad1 201a:afd 201c:ad2 201d:ad3
201e:afe 2020:af1 2021:af2 2022:ae6 2025:aaf 2026:aae 2030:ad5 2032:ad6 2033:ad7 2038:afc 203e:47e
20a9:eff 20ac:20ac 2105:ab8 2116:6b0 2117:afb 211e:ad4 2122:ac9 2153:ab0 2154:ab1 2155:ab2 2156:ab3
2157:ab4 2158:ab5 2159:ab6 215a:ab7 215b:ac3 215c:ac4 215d:ac5 215e:ac6 2190:8fb 2191:8fc 2192:8fd
2193:8fe 21d2:8ce 21d4:8cd 2202:8ef 2207:8c5 2218:bca 221a:8d6 221d:8c1 221e:8c2 2227:8de,ba9
2228:8df,ba8 2229:8dc,bc3 222a:8dd,bd6 222b:8bf 2234:8c0 223c:8c8 2243:8c9 2260:8bd 2261:8cf
2264:8bc 2265:8be 2282:8da,bda 2283:8db,bd8 22a2:bfc 22a3:bdc 22a4:bc2 22a5:bce 2308:bd3 230a:bc4
2315:afa 2320:8a4 2321:8a5 2329:abc 232a:abe 2395:bcc 239b:8ab 239d:8ac 239e:8ad 23a0:8ae 23a1:8a7
23a3:8a8 23a4:8a9 23a6:8aa 23a8:8af 23ac:8b0 23b7:8a1 23ba:9ef 23bb:9f0 23bc:9f2 23bd:9f3 2409:9e2
240a:9e5 240b:9e9 240c:9e3 240d:9e4 2423:aac 2424:9e8 2500:8a3,9f1 2502:8a6,9f8 250c:8a2,9ec
2510:9eb 2514:9ed 2518:9ea 251c:9f4 2524:9f5 252c:9f7 2534:9f6 253c:9ee 2592:9e1 25aa:ae7 25ab:ae1
25ac:adb 25ad:ae2 25ae:adf 25af:acf 25b2:ae8 25b3:ae3 25b6:add 25b7:acd 25bc:ae9 25bd:ae4 25c0:adc
25c1:acc 25c6:9e0 25cb:ace,bcf 25cf:ade 25e6:ae0 2606:ae5 260e:af9 2613:aca 261c:aea 261e:aeb
2640:af8 2642:af7 2663:aec 2665:aee 2666:aed 266d:af6 266f:af5 2713:af3 2717:af4 271d:ad9 2720:af0
3001:4a4 3002:4a1 300c:4a2 300d:4a3 309b:4de 309c:4df 30a1:4a7 30a2:4b1 30a3:4a8 30a4:4b2 30a5:4a9
30a6:4b3 30a7:4aa 30a8:4b4 30a9:4ab 30aa:4b5 30ab:4b6 30ad:4b7 30af:4b8 30b1:4b9 30b3:4ba 30b5:4bb
30b7:4bc 30b9:4bd 30bb:4be 30bd:4bf 30bf:4c0 30c1:4c1 30c3:4af 30c4:4c2 30c6:4c3 30c8:4c4 30ca:4c5
30cb:4c6 30cc:4c7 30cd:4c8 30ce:4c9 30cf:4ca 30d2:4cb 30d5:4cc 30d8:4cd 30db:4ce 30de:4cf 30df:4d0
30e0:4d1 30e1:4d2 30e2:4d3 30e3:4ac 30e4:4d4 30e5:4ad 30e6:4d5 30e7:4ae 30e8:4d6 30e9:4d7 30ea:4d8
30eb:4d9 30ec:4da 30ed:4db 30ef:4dc 30f2:4a6 30f3:4dd 30fb:4a5 30fc:4b0 3131:ea1 3132:ea2 3133:ea3
3134:ea4 3135:ea5 3136:ea6 3137:ea7 3138:ea8 3139:ea9 313a:eaa 313b:eab 313c:eac 313d:ead 313e:eae
313f:eaf 3140:eb0 3141:eb1 3142:eb2 3143:eb3 3144:eb4 3145:eb5 3146:eb6 3147:eb7 3148:eb8 3149:eb9
314a:eba 314b:ebb 314c:ebc 314d:ebd 314e:ebe 314f:ebf 3150:ec0 3151:ec1 3152:ec2 3153:ec3 3154:ec4
3155:ec5 3156:ec6 3157:ec7 3158:ec8 3159:ec9 315a:eca 315b:ecb 315c:ecc 315d:ecd 315e:ece 315f:ecf
3160:ed0 3161:ed1 3162:ed2 3163:ed3 316d:eef 3171:ef0 3178:ef1 317f:ef2 3181:ef3 3184:ef4 3186:ef5
318d:ef6 318e:ef7
`;

let legacyByCodePoint: Map<number, bigint[]> | null = null;

function legacyKeysyms(codePoint: number): readonly bigint[] {
  if (!legacyByCodePoint) {
    legacyByCodePoint = new Map();
    for (const token of LEGACY_TABLE.split(/\s+/)) {
      if (!token) continue;
      const [cp, syms] = token.split(":");
      legacyByCodePoint.set(parseInt(cp, 16), syms.split(",").map((s) => BigInt(`0x${s}`)));
    }
  }
  return legacyByCodePoint.get(codePoint) ?? [];
}

/**
 * The keysym X defines for one code point: Latin-1 as is, anything else
 * `0x01000000 | U`. Null for control characters and lone surrogates, which no key types.
 */
export function unicodeKeysym(codePoint: number): bigint | null {
  if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint < 0xa0)) return null;
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) return null;
  if (codePoint > 0x10ffff) return null;
  return codePoint < 0x100 ? BigInt(codePoint) : 0x01000000n | BigInt(codePoint);
}

/**
 * Every keysym that produces one code point, preferred first: Return for a newline,
 * Tab for a tab, then the Unicode keysym and any legacy ones. Empty when nothing types it.
 */
export function keysymsForCodePoint(codePoint: number): bigint[] {
  if (codePoint === 0x0a || codePoint === 0x0d) return [XK.Return];
  if (codePoint === 0x09) return [XK.Tab];
  const unicode = unicodeKeysym(codePoint);
  if (unicode === null) return [];
  return [unicode, ...legacyKeysyms(codePoint)];
}
