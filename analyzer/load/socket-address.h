/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* What config_parse_socket_listen() makes of the address of ListenStream=, ListenDatagram= and
 * ListenSequentialPacket= (syntax="socket-address" in rules/unit-keys.xml): the grammar of systemd's
 * socket_address_parse() (src/shared/socket-netlink.c@v247..v262) — an AF_UNIX path or abstract name, an AF_VSOCK
 * "vsock:CID:PORT", a port, "IPv4:PORT", "[IPv6]:PORT", each IP form optionally with "%IFNAME" — with the version
 * facts of rules/features.xml (socket-address-parse, vsock-socket-types, vsock-named-cids, path-printf-max). */

#include "rules/features.h"

typedef enum SocketAddressVerdict {
        SOCKET_ADDRESS_OK,
        SOCKET_ADDRESS_BAD,         /* "Failed to parse address value …, ignoring" */
        SOCKET_ADDRESS_TOO_LONG,    /* longer than a path may be after specifiers: "Failed to resolve unit specifiers" */
        SOCKET_ADDRESS_FAMILY,      /* ListenSequentialPacket= of anything but AF_UNIX: "Address family not supported" */
        SOCKET_ADDRESS_UNKNOWN,     /* not judged: specifiers, or a version before the parser modelled */
} SocketAddressVerdict;

/* Judges value as key's address for the version of fs. *ret_why (optional) says why it is not OK, in a few words.
 * expanded: value is the result of specifier expansion (a '%' in it is a character); else a value with specifiers
 * other than "%%" is judged only by how long it must at least become. An interface name ("%eth0" after the
 * address, written "%%eth0") that is valid is accepted: whether the host has it is not known offline. */
/* Whether systemd takes value as a SocketBindAllow=/SocketBindDeny= item, parse_socket_bind_item()
 * (src/shared/parse-socket-bind-item.c@v249, parse-helpers.c@v252..v261): [ipv4|ipv6:][tcp|udp:](any|PORT[-PORT]),
 * ports 1..65535 (0 too from 256: socket-bind-port-zero). NULL when it does, else why not. */
const char *socket_bind_why(const char *value, const FeatureSet *fs);

SocketAddressVerdict socket_address_judge(const char *key, const char *value, bool expanded, const FeatureSet *fs,
                                          const char **ret_why);
