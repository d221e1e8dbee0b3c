/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzzes the value judges of load/: the input is a value (up to its first NUL, as a unit file line would hold
 * it) judged as a listening address of each Listen*= key, a calendar specification, a SocketBindAllow= item,
 * a DeviceAllow= value, a signal and an exit status list, as written and as expanded, at versions on both sides
 * of their version facts. None may crash, and a refusal always comes with its reason. */

#include "fuzz-util.h"
#include "fuzz.h"
#include "load/calendar-spec.h"
#include "load/exit-status.h"
#include "load/socket-address.h"
#include "load/unit-settings.h"

#define INPUT_MAX (64 * 1024)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        static const unsigned versions[] = { 237, 239, 242, 243, 246, 247, 249, 254, 256, 260, 262 };
        static const char *const keys[] = { "ListenStream", "ListenDatagram", "ListenSequentialPacket" };
        static const Rules *rules;
        _cleanup_(freep) char *value = NULL;

        if (size > INPUT_MAX)
                return 0;
        if (!rules) {
                DiagList d = {};
                Rules *r = NULL;
                if (rules_load(fuzz_rules_dir(), &r, &d) < 0)
                        abort();
                diag_list_done(&d);
                rules = r;
        }
        value = strndup_safe((const char *) data, size);
        if (!value)
                return 0;
        for (size_t i = 0; i < ELEMENTSOF(versions); i++) {
                const FeatureSet *fs = fuzz_features(versions[i]);
                const KeyInfo *dev = rules_key_lookup(rules, UNIT_SERVICE, "Service", "DeviceAllow", versions[i]);
                const char *why = NULL;

                for (size_t k = 0; k < ELEMENTSOF(keys); k++)
                        for (int expanded = 0; expanded < 2; expanded++) {
                                SocketAddressVerdict v = socket_address_judge(keys[k], value, expanded, fs, &why);
                                if ((v == SOCKET_ADDRESS_BAD || v == SOCKET_ADDRESS_TOO_LONG ||
                                     v == SOCKET_ADDRESS_FAMILY) != (why != NULL))
                                        abort();
                        }
                for (int expanded = 0; expanded < 2; expanded++)
                        if ((calendar_spec_judge(value, expanded, fs, &why) == CALENDAR_BAD) != (why != NULL))
                                abort();
                (void) socket_bind_why(value, fs);
                {
                        /* a signal is a number 1..64 or refused; the list judge always says why it refuses */
                        int sig = signal_parse(value, fs);
                        if (sig == 0 || sig > 64)
                                abort();
                        why = exit_status_list_why(value, fs);
                        if (why && !*why)
                                abort();
                }
                if (dev && unit_value_check(dev, "DeviceAllow", value, "a@b.service", versions[i], fs, &why) == -ENOMEM)
                        abort();
        }
        return 0;
}
