/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* socket_address_judge(): the listening addresses systemd's socket_address_parse() takes and refuses, per version.
 * The same table of values is in fixtures/show/socket-addresses, where t6000 checks it against the real
 * systemd-analyze verify of the lab trees (247, 252, 257, 262); here each version fact is checked on its own,
 * with the versions on both sides of it. */

#include "features.h"
#include "load/socket-address.h"
#include "tap.h"

typedef struct Case {
        const char *key, *value;
        bool expanded;
        unsigned version;
        SocketAddressVerdict want;
} Case;

#define OK SOCKET_ADDRESS_OK
#define BAD SOCKET_ADDRESS_BAD
#define LONG SOCKET_ADDRESS_TOO_LONG
#define FAMILY SOCKET_ADDRESS_FAMILY
#define UNKNOWN SOCKET_ADDRESS_UNKNOWN

static const char *verdict_name(SocketAddressVerdict v) {
        static const char *const names[] = { "ok", "bad", "too long", "family", "unknown" };
        return v >= 0 && v <= SOCKET_ADDRESS_UNKNOWN ? names[v] : "?";
}

static void check(const Case *c) {
        const char *why = NULL;
        SocketAddressVerdict got = socket_address_judge(c->key, c->value, c->expanded, test_features(c->version), &why);

        tap_ok(got == c->want, "%s=%.60s%s at %u: %s (wanted %s)%s%s", c->key, c->value,
               strlen(c->value) > 60 ? "..." : "", c->version, verdict_name(got), verdict_name(c->want),
               why ? ": " : "", strempty(why));
        if (c->want == OK || c->want == UNKNOWN)
                tap_ok(!why, "%s=%.40s at %u: no reason given when accepted", c->key, c->value, c->version);
        else
                tap_ok(why && *why, "%s=%.40s at %u: a reason when refused", c->key, c->value, c->version);
}

static void test_unix(void) {
        static char path107[109], path108[110], varrun[120], abstract108[110];
        memset(path107, 'a', 107);
        path107[0] = '/';
        memset(path108, 'a', 108);
        path108[0] = '/';
        memset(abstract108, 'b', 108);
        abstract108[0] = '@';
        /* /var/run/ counts as /run/ (patch_var_run() comes first): 111 bytes written, 107 parsed */
        snprintf(varrun, sizeof varrun, "/var/run/%0102d", 0);
        const Case cases[] = {
                { "ListenStream", "/run/x.sock", false, 252, OK },
                { "ListenStream", "/", false, 252, BAD },
                { "ListenStream", "@", false, 247, BAD },
                { "ListenStream", "@a", false, 247, OK },
                { "ListenStream", path107, false, 257, OK },
                { "ListenStream", path108, false, 257, BAD },
                { "ListenStream", abstract108, false, 262, BAD },
                { "ListenStream", varrun, false, 252, OK },
                { "ListenSequentialPacket", "/run/seq", false, 252, OK },
                { "ListenSequentialPacket", "@seq", false, 262, OK },
        };
        for (size_t i = 0; i < ELEMENTSOF(cases); i++)
                check(&cases[i]);
}

static void test_vsock(void) {
        const Case cases[] = {
                { "ListenStream", "vsock:2:1234", false, 247, OK },
                { "ListenStream", "vsock::1234", false, 252, OK },
                { "ListenStream", "vsock:2", false, 252, BAD },
                { "ListenStream", "vsock:x:1", false, 252, BAD },
                { "ListenStream", "vsock:4294967296:1", false, 257, BAD },
                { "ListenStream", "vsock:0x10:22", false, 252, OK },
                { "ListenStream", "vsock:0b101:1", false, 252, OK },
                /* vsock-socket-types (254) */
                { "ListenStream", "vsock-stream:2:22", false, 253, BAD },
                { "ListenStream", "vsock-stream:2:22", false, 254, OK },
                { "ListenDatagram", "vsock-dgram::22", false, 257, OK },
                /* vsock-named-cids (256): named CIDs, and VMADDR_PORT_ANY refused */
                { "ListenStream", "vsock:host:22", false, 255, BAD },
                { "ListenStream", "vsock:host:22", false, 256, OK },
                { "ListenStream", "vsock:hypervisor:22", false, 257, OK },
                { "ListenStream", "vsock:2:4294967295", false, 255, OK },
                { "ListenStream", "vsock:2:4294967295", false, 256, BAD },
                /* vsock-cid-any-names (262) */
                { "ListenStream", "vsock:-1:1", false, 257, BAD },
                { "ListenStream", "vsock:-1:1", false, 262, OK },
                { "ListenStream", "vsock:any:1", false, 262, OK },
                { "ListenSequentialPacket", "vsock:2:1", false, 257, FAMILY },
        };
        for (size_t i = 0; i < ELEMENTSOF(cases); i++)
                check(&cases[i]);
}

static void test_ip(void) {
        const Case cases[] = {
                { "ListenStream", "80", false, 252, OK },
                { "ListenStream", "0", false, 252, BAD },
                { "ListenStream", "65535", false, 252, OK },
                { "ListenStream", "65536", false, 252, BAD },
                { "ListenStream", "0x50", false, 252, OK },
                /* C's prefixes: 0x is hex, 0 octal (so 080 is no number, as t6000's verify agrees) */
                { "ListenStream", "080", false, 252, BAD },
                { "ListenStream", "010", false, 252, OK },
                { "ListenStream", "08", false, 252, BAD },
                { "ListenStream", "-80", false, 252, BAD },
                { "ListenStream", "1.2.3.4:80", false, 247, OK },
                { "ListenStream", "1.2.3.4", false, 247, BAD },
                { "ListenStream", "1.2.3.4:0", false, 252, BAD },
                { "ListenStream", "1.2.3.4:99999", false, 252, BAD },
                { "ListenStream", "256.1.1.1:80", false, 252, BAD },
                { "ListenStream", "localhost:80", false, 252, BAD },
                { "ListenStream", "[::1]:80", false, 252, OK },
                { "ListenStream", "[::1]", false, 252, BAD },
                { "ListenStream", "::1", false, 252, BAD },
                { "ListenStream", "[1.2.3.4]:80", false, 252, BAD },
                { "ListenStream", "1.2.3.4:80#name", false, 252, BAD },
                /* an interface: "%%" in the file, "%" once expanded */
                { "ListenStream", "[::1]:80%%lo", false, 252, OK },
                { "ListenStream", "[::1]:80%lo", true, 252, OK },
                { "ListenStream", "1.2.3.4:80%%all", false, 252, BAD },
                { "ListenStream", "1.2.3.4:80%%", false, 252, BAD },
                { "ListenStream", "1.2.3.4:80%%1", false, 252, OK },
                { "ListenDatagram", "nonsense", false, 252, BAD },
                { "ListenSequentialPacket", "1.2.3.4:80", false, 252, FAMILY },
                { "ListenSequentialPacket", "80", false, 247, FAMILY },
        };
        for (size_t i = 0; i < ELEMENTSOF(cases); i++)
                check(&cases[i]);
}

static void test_specifiers_and_versions(void) {
        static char huge[4200];
        memset(huge, 'c', sizeof huge - 1);
        memcpy(huge, "%t/", 3);
        const Case cases[] = {
                /* another specifier: not known here, so not judged ... */
                { "ListenStream", "%t/x.sock", false, 252, UNKNOWN },
                { "ListenStream", "1.2.3.4:%i", false, 257, UNKNOWN },
                /* ... unless the value cannot get short enough whatever it expands to (path-printf-max, 249) */
                { "ListenStream", huge, false, 248, UNKNOWN },
                { "ListenStream", huge, false, 249, LONG },
                /* before 247 the parser is another one, which bootrace does not judge */
                { "ListenStream", "vsock:x:1", false, 246, UNKNOWN },
                { "ListenSequentialPacket", "80", false, 246, UNKNOWN },
        };
        for (size_t i = 0; i < ELEMENTSOF(cases); i++)
                check(&cases[i]);
}

/* socket_bind_why(): SocketBindAllow=/SocketBindDeny= items, the parsers in their order */
static void test_socket_bind(void) {
        static const struct {
                const char *value;
                unsigned version;
                bool ok;
        } cases[] = {
                { "any", 252, true },          { "tcp:80", 252, true },       { "ipv4:tcp:80", 252, true },
                { "ipv6:udp:1000-2000", 252, true }, { "ipv4", 252, true },   { "ipv4:tcp", 252, true },
                { "0x50", 252, true },         { ":", 252, false },           { "80:tcp", 252, false },
                { "tcp:ipv4:80", 252, false }, { "2000-1000", 252, false },   { "70000", 252, false },
                { "ipv4::80", 252, false },    { "80-", 252, false },         { "ipv4:tcp:80:x", 252, false },
                { "tcp:", 252, false },        { "IPv4:80", 252, false },
                /* socket-bind-port-zero (256) */
                { "0", 255, false },           { "0", 256, true },            { "0-80", 255, false },
                { "0-80", 257, true },
        };
        for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
                const char *why = socket_bind_why(cases[i].value, test_features(cases[i].version));
                tap_ok(!why == cases[i].ok, "SocketBindAllow=%s at %u: %s%s%s", cases[i].value, cases[i].version,
                       why ? "refused" : "accepted", why ? ": " : "", strempty(why));
        }
}

int main(void) {
        test_socket_bind();
        test_unix();
        test_vsock();
        test_ip();
        test_specifiers_and_versions();
        return tap_done();
}
