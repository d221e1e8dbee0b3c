/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <arpa/inet.h>
#include <limits.h>

#include "load/socket-address.h"

/* sizeof(struct sockaddr_un.sun_path) on Linux; PATH_MAX - 1, what unit_path_printf() allows */
#define SUN_PATH_SIZE 108
#define PATH_PRINTF_MAX 4095
#define ALTIFNAMSIZ 128

/* safe_atou_full() with base 0 (systemd_atou(); every socket address fact is from 247, after 246), optionally with no
 * blank before the number (s[0] == 0, an empty number, is refused too), at most max */
static int parse_unsigned(const char *s, bool refuse_blanks, unsigned long max, unsigned long *ret) {
        unsigned long l;
        int r;

        if (refuse_blanks && strchr(WHITESPACE, s[0]))
                return -EINVAL;
        r = systemd_atou(s, true, &l);
        if (r < 0)
                return r;
        if (l > max)
                return -ERANGE;
        *ret = l;
        return 0;
}

/* parse_ip_port(): 1..65535, no blanks before it */
static int parse_ip_port(const char *s) {
        unsigned long l;
        int r = parse_unsigned(s, true, UINT16_MAX, &l);
        if (r < 0)
                return r;
        return l == 0 ? -EINVAL : 0;
}

/* parse_ip_port_range() of parse_range(): LOW or LOW-HIGH, each safe_atou() */
static bool port_range_ok(const char *s, bool zero) {
        _cleanup_(freep) char *low = NULL;
        const char *dash = strchr(s, '-');
        unsigned long l, h;

        low = strndup_safe(s, dash ? (size_t) (dash - s) : strlen(s));
        if (!low || parse_unsigned(low, false, UINT_MAX, &l) < 0)
                return false;
        if (!dash)
                h = l;
        else if (!dash[1] || parse_unsigned(dash + 1, false, UINT_MAX, &h) < 0)
                return false;
        if (l > UINT16_MAX || h > UINT16_MAX || (!zero && (l == 0 || h == 0)))
                return false;
        return h >= l;
}

const char *socket_bind_why(const char *value, const FeatureSet *fs) {
        bool zero = feature_enabled(fs, FEATURE_SOCKET_BIND_PORT_ZERO);
        unsigned next = 0; /* the first of the three parsers (family, protocol, ports) still to try */
        const char *p = value;

        if (isempty(value))
                return "empty";
        for (;;) {
                size_t n = strcspn(p, ":");
                _cleanup_(freep) char *t = strndup_safe(p, n);
                bool parsed = false;

                if (!t)
                        return "out of memory";
                if (n == 0)
                        return "an empty part between colons";
                while (next < 3 && !parsed) {
                        if (next == 0)
                                parsed = streq(t, "ipv4") || streq(t, "ipv6");
                        else if (next == 1)
                                parsed = streq(t, "tcp") || streq(t, "udp");
                        else
                                parsed = streq(t, "any") || port_range_ok(t, zero);
                        next++;
                }
                if (!parsed)
                        return "not [ipv4|ipv6:][tcp|udp:](any|PORT[-PORT])";
                p += n;
                if (next == 3)
                        return *p ? "more after the ports" : NULL;
                if (!*p)
                        return NULL;
                p++; /* the ':' */
        }
}

/* ifname_valid_full(p, IFNAME_VALID_ALTERNATIVE | IFNAME_VALID_NUMERIC) (src/basic/socket-util.c@v252) */
static bool ifname_valid(const char *p) {
        bool numeric = true;
        unsigned long l;

        if (isempty(p))
                return false;
        /* an interface index (parse_ifindex(): a positive int) */
        if (parse_unsigned(p, false, INT_MAX, &l) >= 0 && l > 0 && p[0] != '-')
                return true;
        if (strlen(p) >= ALTIFNAMSIZ || streq(p, ".") || streq(p, "..") || streq(p, "all") || streq(p, "default"))
                return false;
        for (const char *t = p; *t; t++) {
                unsigned char c = (unsigned char) *t;
                if (c >= 127 || c <= 32 || c == ':' || c == '/' || c == '%')
                        return false;
                numeric = numeric && c >= '0' && c <= '9';
        }
        return !numeric;
}

static bool ip_ok(int family, const char *s, size_t n) {
        _cleanup_(freep) char *c = strndup_safe(s, n);
        unsigned char buf[sizeof(struct in6_addr)];

        return c && inet_pton(family, c, buf) > 0;
}

/* in_addr_port_ifindex_name_from_string_auto(s, …, &port, &ifindex, NULL) and then "port 0 is no go"
 * (src/shared/socket-netlink.c@v247..v262): NULL when it parses, else why not. */
static const char *ip_address_why(const char *s) {
        const char *pct = strchr(s, '%'), *m;
        size_t n = pct ? (size_t) (pct - s) : strlen(s);

        if (strchr(s, '#'))
                return "a server name (#NAME) is not accepted in a listening address";
        if (pct && !ifname_valid(pct + 1))
                return "not a valid interface name after %";
        /* the last ':' before the interface */
        m = NULL;
        for (size_t i = 0; i < n; i++)
                if (s[i] == ':')
                        m = s + i;
        if (!m)
                return ip_ok(AF_INET, s, n) ? "an IPv4 address without a port" : "not an address";
        if (s[0] == '[') {
                _cleanup_(freep) char *port = strndup_safe(m + 1, n - (size_t) (m + 1 - s));
                if (m[-1] != ']')
                        return "not an [IPv6]:PORT address";
                if (!port || parse_ip_port(port) < 0)
                        return "not a port (1 to 65535) after the address";
                return ip_ok(AF_INET6, s + 1, (size_t) (m - s) - 2) ? NULL : "not an IPv6 address in [ ]";
        }
        if (ip_ok(AF_INET6, s, n))
                return "an IPv6 address without a port (write [ADDRESS]:PORT)";
        if (!ip_ok(AF_INET, s, (size_t) (m - s)))
                return "not an address";
        {
                _cleanup_(freep) char *port = strndup_safe(m + 1, n - (size_t) (m + 1 - s));
                if (!port || parse_ip_port(port) < 0)
                        return "not a port (1 to 65535) after the address";
        }
        return NULL;
}

/* socket_address_parse_vsock() (src/basic/socket-util.c@v254..v262; inline in socket_address_parse() before) */
static const char *vsock_why(const char *cid, const FeatureSet *fs) {
        const char *e = strchr(cid, ':');
        unsigned long l;

        if (!e)
                return "vsock:CID:PORT without its port";
        if (parse_unsigned(e + 1, false, UINT_MAX, &l) < 0)
                return "not a vsock port";
        if (feature_enabled(fs, FEATURE_VSOCK_NAMED_CIDS) && l == UINT_MAX)
                return "the vsock port 4294967295 (VMADDR_PORT_ANY) is not accepted";
        if (e == cid)
                return NULL; /* VMADDR_CID_ANY */
        if (feature_enabled(fs, FEATURE_VSOCK_NAMED_CIDS)) {
                size_t n = (size_t) (e - cid);
                        if ((n == 10 && startswith(cid, "hypervisor")) || (n == 5 && startswith(cid, "local")) ||
                    (n == 4 && startswith(cid, "host")))
                        return NULL;
        }
        if (feature_enabled(fs, FEATURE_VSOCK_CID_ANY_NAMES) &&
            ((e - cid == 3 && startswith(cid, "any")) || (e - cid == 2 && startswith(cid, "-1"))))
                return NULL;
        {
                _cleanup_(freep) char *c = strndup_safe(cid, (size_t) (e - cid));
                if (!c || parse_unsigned(c, false, UINT_MAX, &l) < 0)
                        return "not a vsock CID (a 32-bit number)";
        }
        return NULL;
}

static const char *vsock_cid_start(const char *s, const FeatureSet *fs) {
        const char *p = startswith(s, "vsock:");

        if (p || !feature_enabled(fs, FEATURE_VSOCK_SOCKET_TYPES))
                return p;
        return startswith(s, "vsock-dgram:") ?: startswith(s, "vsock-seqpacket:") ?: startswith(s, "vsock-stream:");
}

SocketAddressVerdict socket_address_judge(const char *key, const char *value, bool expanded, const FeatureSet *fs,
                                          const char **ret_why) {
        _cleanup_(freep) char *s = NULL;
        const char *why = NULL, *cid;
        size_t n;
        bool specifiers = false, unix_family = false;

        if (ret_why)
                *ret_why = NULL;
        if (!feature_enabled(fs, FEATURE_SOCKET_ADDRESS_PARSE))
                return SOCKET_ADDRESS_UNKNOWN;
        /* "%%" is a '%'; any other specifier expands to what is not known here, maybe to nothing */
        s = malloc(strlen(value) + 1);
        if (!s)
                return SOCKET_ADDRESS_UNKNOWN;
        n = 0;
        for (const char *p = value; *p; p++) {
                if (*p != '%' || expanded) {
                        s[n++] = *p;
                        continue;
                }
                if (p[1] == '%')
                        s[n++] = '%';
                else
                        specifiers = true;
                if (p[1])
                        p++;
        }
        s[n] = 0;
        /* n is as long as the value can get: the specifiers may expand to nothing */
        if (feature_enabled(fs, FEATURE_PATH_PRINTF_MAX) && n > PATH_PRINTF_MAX) {
                if (ret_why)
                        *ret_why = "longer than a path may be after its specifiers (4095 bytes)";
                return SOCKET_ADDRESS_TOO_LONG;
        }
        if (specifiers)
                return SOCKET_ADDRESS_UNKNOWN;

        if (s[0] == '/' || s[0] == '@') {
                size_t l = n;
                /* patch_var_run(): /var/run/ becomes /run/ before the address is parsed */
                if (startswith(s, "/var/run/"))
                        l -= 4;
                unix_family = true;
                if (l < 2)
                        why = "an AF_UNIX address needs a name after its / or @";
                else if (l + 1 > SUN_PATH_SIZE)
                        why = "an AF_UNIX address longer than 107 bytes";
        } else if ((cid = vsock_cid_start(s, fs)))
                why = vsock_why(cid, fs);
        else {
                int r = parse_ip_port(s);
                if (r == -ERANGE)
                        why = "a port out of range (1 to 65535)";
                else if (r < 0)
                        why = ip_address_why(s);
        }
        if (why) {
                if (ret_why)
                        *ret_why = why;
                return SOCKET_ADDRESS_BAD;
        }
        if (streq(key, "ListenSequentialPacket") && !unix_family) {
                if (ret_why)
                        *ret_why = "ListenSequentialPacket= takes only AF_UNIX addresses (a path or @name)";
                return SOCKET_ADDRESS_FAMILY;
        }
        return SOCKET_ADDRESS_OK;
}
