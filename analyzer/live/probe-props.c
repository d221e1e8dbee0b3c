/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "live/probe-props.h"
#include "load/unit-values.h"
#include "load/unit-words.h"

typedef enum ProbeKind {
        PK_BOOL,
        PK_PRIVATE_TMP, /* yes/no, or (257+) connected/disconnected -> PrivateTmpEx */
        PK_PROTECT, /* ProtectSystem=/ProtectHome=: a boolean becomes "yes"/"no", other words pass as is */
        PK_STRING,
        PK_UMASK,
        PK_LIST, /* as: paths (with their -/+ prefixes) or words */
        PK_BINDS,
        PK_TMPFS,
} ProbeKind;

typedef struct ProbeKey {
        const char *key;      /* as in unit files */
        const char *property; /* StartTransientUnit property */
        ProbeKind kind;
        bool unit_section;    /* [Unit] rather than the type's own section */
} ProbeKey;

static const ProbeKey probe_keys[] = {
        { "DefaultDependencies", "DefaultDependencies", PK_BOOL, true },
        { "RequiresMountsFor", "RequiresMountsFor", PK_LIST, true },
        { "PrivateTmp", "PrivateTmp", PK_PRIVATE_TMP, false },
        { "PrivateDevices", "PrivateDevices", PK_BOOL, false },
        { "PrivateNetwork", "PrivateNetwork", PK_BOOL, false },
        { "PrivateUsers", "PrivateUsers", PK_BOOL, false },
        { "PrivateMounts", "PrivateMounts", PK_BOOL, false },
        { "PrivateIPC", "PrivateIPC", PK_BOOL, false },
        { "ProtectSystem", "ProtectSystem", PK_PROTECT, false },
        { "ProtectHome", "ProtectHome", PK_PROTECT, false },
        { "ProtectKernelTunables", "ProtectKernelTunables", PK_BOOL, false },
        { "ProtectKernelModules", "ProtectKernelModules", PK_BOOL, false },
        { "ProtectKernelLogs", "ProtectKernelLogs", PK_BOOL, false },
        { "ProtectControlGroups", "ProtectControlGroups", PK_BOOL, false },
        { "ProtectClock", "ProtectClock", PK_BOOL, false },
        { "ProtectHostname", "ProtectHostname", PK_BOOL, false },
        { "ProtectProc", "ProtectProc", PK_STRING, false },
        { "ProcSubset", "ProcSubset", PK_STRING, false },
        { "MountAPIVFS", "MountAPIVFS", PK_BOOL, false },
        { "NoNewPrivileges", "NoNewPrivileges", PK_BOOL, false },
        { "DynamicUser", "DynamicUser", PK_BOOL, false },
        { "RemoveIPC", "RemoveIPC", PK_BOOL, false },
        { "LockPersonality", "LockPersonality", PK_BOOL, false },
        { "RestrictRealtime", "RestrictRealtime", PK_BOOL, false },
        { "RestrictSUIDSGID", "RestrictSUIDSGID", PK_BOOL, false },
        { "MemoryDenyWriteExecute", "MemoryDenyWriteExecute", PK_BOOL, false },
        { "User", "User", PK_STRING, false },
        { "Group", "Group", PK_STRING, false },
        { "SupplementaryGroups", "SupplementaryGroups", PK_LIST, false },
        { "WorkingDirectory", "WorkingDirectory", PK_STRING, false },
        { "RootDirectory", "RootDirectory", PK_STRING, false },
        { "UMask", "UMask", PK_UMASK, false },
        { "Environment", "Environment", PK_LIST, false },
        { "ReadWritePaths", "ReadWritePaths", PK_LIST, false },
        { "ReadWriteDirectories", "ReadWritePaths", PK_LIST, false },
        { "ReadOnlyPaths", "ReadOnlyPaths", PK_LIST, false },
        { "ReadOnlyDirectories", "ReadOnlyPaths", PK_LIST, false },
        { "InaccessiblePaths", "InaccessiblePaths", PK_LIST, false },
        { "InaccessibleDirectories", "InaccessiblePaths", PK_LIST, false },
        { "ExecPaths", "ExecPaths", PK_LIST, false },
        { "NoExecPaths", "NoExecPaths", PK_LIST, false },
        { "RuntimeDirectory", "RuntimeDirectory", PK_LIST, false },
        { "StateDirectory", "StateDirectory", PK_LIST, false },
        { "CacheDirectory", "CacheDirectory", PK_LIST, false },
        { "LogsDirectory", "LogsDirectory", PK_LIST, false },
        { "ConfigurationDirectory", "ConfigurationDirectory", PK_LIST, false },
        { "BindPaths", "BindPaths", PK_BINDS, false },
        { "BindReadOnlyPaths", "BindReadOnlyPaths", PK_BINDS, false },
        { "TemporaryFileSystem", "TemporaryFileSystem", PK_TMPFS, false },
};

/* Keys about how the main process is run, restarted or stopped: not part of the sandbox, never reported. */
static const char *const frame_keys[] = {
        "Type",
        "ExecStart",
        "ExecStartPre",
        "ExecStartPost",
        "ExecStop",
        "ExecStopPost",
        "ExecReload",
        "ExecCondition",
        "Restart",
        "RestartSec",
        "RestartPreventExitStatus",
        "RestartForceExitStatus",
        "SuccessExitStatus",
        "RemainAfterExit",
        "PIDFile",
        "BusName",
        "NotifyAccess",
        "WatchdogSec",
        "TimeoutSec",
        "TimeoutStartSec",
        "TimeoutStopSec",
        "TimeoutAbortSec",
        "RuntimeMaxSec",
        "KillMode",
        "KillSignal",
        "SendSIGKILL",
        "SendSIGHUP",
        "FinalKillSignal",
        "GuessMainPID",
        "StandardInput",
        "StandardOutput",
        "StandardError",
        "SyslogIdentifier",
        "SyslogFacility",
        "SyslogLevel",
        "Sockets",
        "FileDescriptorStoreMax",
        "ExitType",
        "OOMPolicy",
        "RestartMode",
        "RestartSteps",
        "RestartMaxDelaySec",
        "TTYPath",
        "TTYReset",
        "TTYVHangup",
        "TTYVTDisallocate",
        "USBFunctionDescriptors",
        "USBFunctionStrings",
        "Slice",
        "Delegate",
};

static const char * const *supported_cache;

bool probe_key_supported(const char *key) {
        for (size_t i = 0; i < ELEMENTSOF(probe_keys); i++)
                if (streq(probe_keys[i].key, key))
                        return true;
        return false;
}

const char * const *probe_supported_keys(void) {
        static const char *keys[ELEMENTSOF(probe_keys) + 1];

        if (!supported_cache) {
                for (size_t i = 0; i < ELEMENTSOF(probe_keys); i++)
                        keys[i] = probe_keys[i].key;
                supported_cache = keys;
        }
        return supported_cache;
}

static const ProbeKey *probe_key_find(const char *key) {
        for (size_t i = 0; i < ELEMENTSOF(probe_keys); i++)
                if (streq(probe_keys[i].key, key))
                        return &probe_keys[i];
        return NULL;
}

static int prop_list_append(TransientProp *p, char * const *words) {
        STRV_FOREACH(w, words)
                if (strv_extend(&p->strv, *w) < 0)
                        return -ENOMEM;
        if (!p->strv && !(p->strv = calloc(1, sizeof(char *))))
                return -ENOMEM;
        return 0;
}

/* "[-]SRC[:DEST[:OPTIONS]]" for BindPaths=, "PATH[:OPTIONS]" for TemporaryFileSystem=. */
static int prop_pair_append(TransientProp *p, const char *word, bool binds, const char **ret_error) {
        _cleanup_(freep) char *src = NULL, *dst = NULL;
        const char *w = word, *c;
        bool ignore = false;
        uint64_t flags = 16384; /* MS_REC: recursive unless "norbind" */
        size_t n = strv_length(p->strv);

        if (binds && *w == '-') {
                ignore = true;
                w++;
        }
        c = strchr(w, ':');
        src = c ? strndup_safe(w, c - w) : strdup(w);
        if (!src)
                return -ENOMEM;
        if (binds) {
                const char *d = c ? c + 1 : NULL, *o = d ? strchr(d, ':') : NULL;
                dst = d ? (o ? strndup_safe(d, o - d) : strdup(d)) : strdup(src);
                if (!dst)
                        return -ENOMEM;
                if (o && streq(o + 1, "norbind"))
                        flags = 0;
                else if (o && !isempty(o + 1) && !streq(o + 1, "rbind")) {
                        *ret_error = "bind options must be rbind or norbind";
                        return -EINVAL;
                }
        } else if (!(dst = strdup(c ? c + 1 : "")))
                return -ENOMEM;
        if (!path_is_absolute(src) || (binds && !path_is_absolute(dst))) {
                *ret_error = "paths must be absolute";
                return -EINVAL;
        }
        if (strv_push(&p->strv, TAKE_PTR(src)) < 0 || strv_push(&p->strv2, TAKE_PTR(dst)) < 0)
                return -ENOMEM;
        if (binds) {
                bool *ig = realloc(p->ignore, (n + 1) * sizeof(bool));
                uint64_t *fl;
                if (!ig)
                        return -ENOMEM;
                p->ignore = ig;
                fl = realloc(p->flags, (n + 1) * sizeof(uint64_t));
                if (!fl)
                        return -ENOMEM;
                p->flags = fl;
                p->ignore[n] = ignore;
                p->flags[n] = flags;
        }
        return 0;
}

/* Applies one value. words: the value split as systemd splits it (lists), NULL for single values. */
static int apply(TransientProps *props, const ProbeKey *k, const char *value, char * const *words,
                 const char *origin, const char **ret_error) {
        TransientProp *p;
        int b, r;

        switch (k->kind) {
        case PK_BOOL:
        case PK_PRIVATE_TMP:
                b = parse_boolean(value);
                if (b < 0 && k->kind == PK_PRIVATE_TMP &&
                    (streq(value, "connected") || streq(value, "disconnected"))) {
                        p = transient_props_add(props, "PrivateTmpEx", TPROP_STRING, origin);
                        if (!p || !(p->s = strdup(value)))
                                return -ENOMEM;
                        return 0;
                }
                if (b < 0) {
                        *ret_error = "expected a boolean (yes/no)";
                        return -EINVAL;
                }
                p = transient_props_add(props, k->property, TPROP_BOOL, origin);
                if (!p)
                        return -ENOMEM;
                p->b = b;
                return 0;
        case PK_PROTECT:
                b = parse_boolean(value);
                p = transient_props_add(props, k->property, TPROP_STRING, origin);
                if (!p || !(p->s = strdup(b > 0 ? "yes" : b == 0 ? "no" : value)))
                        return -ENOMEM;
                return 0;
        case PK_STRING:
                p = transient_props_add(props, k->property, TPROP_STRING, origin);
                if (!p || !(p->s = strdup(value)))
                        return -ENOMEM;
                return 0;
        case PK_UMASK: {
                char *end;
                unsigned long m;
                errno = 0;
                m = strtoul(value, &end, 8);
                if (errno || *end || end == value || m > 0777) {
                        *ret_error = "expected an octal mode such as 0022";
                        return -EINVAL;
                }
                p = transient_props_add(props, k->property, TPROP_U32, origin);
                if (!p)
                        return -ENOMEM;
                p->u = (uint32_t) m;
                return 0;
        }
        case PK_LIST:
        case PK_BINDS:
        case PK_TMPFS: {
                TransientPropKind tk = k->kind == PK_LIST ? TPROP_STRV : k->kind == PK_BINDS ? TPROP_BINDS :
                                                                                              TPROP_TMPFS;
                p = (TransientProp *) transient_props_get(props, k->property);
                if (!p || p->kind != tk) {
                        p = transient_props_add(props, k->property, tk, origin);
                        if (!p)
                                return -ENOMEM;
                } else if (origin && p->origin && !strstr(p->origin, origin)) {
                        /* accumulated from several lines: keep them all */
                        char *o = strjoin(p->origin, ", ", origin);
                        if (!o)
                                return -ENOMEM;
                        free(p->origin);
                        p->origin = o;
                }
                if (k->kind == PK_LIST)
                        return prop_list_append(p, words);
                STRV_FOREACH(w, words) {
                        r = prop_pair_append(p, *w, k->kind == PK_BINDS, ret_error);
                        if (r < 0)
                                return r;
                }
                if (!p->strv &&
                    (!(p->strv = calloc(1, sizeof(char *))) || !(p->strv2 = calloc(1, sizeof(char *)))))
                        return -ENOMEM;
                return 0;
        }
        }
        return -EINVAL;
}

static bool is_frame_key(const char *key) {
        for (size_t i = 0; i < ELEMENTSOF(frame_keys); i++)
                if (streq(frame_keys[i], key))
                        return true;
        return false;
}

int probe_props_from_unit(const Unit *u, const SettingStatus *st, const Rules *rules, unsigned version,
                          TransientProps *props, char ***ret_not_applied, DiagList *diags) {
        _cleanup_(strv_freep) char **not_applied = NULL;
        const char *own = rules_type_section(u->type);
        FeatureSet fs;

        if (rules_feature_set(rules, version, &fs) < 0)
                return -EINVAL;

        for (size_t i = 0; i < u->n_settings; i++) {
                const Setting *s = &u->settings[i];
                const char *file = u->sources[s->source].path;
                _cleanup_(freep) char *origin = NULL, *value = NULL;
                _cleanup_(strv_freep) char **words = NULL;
                const ProbeKey *k;
                const char *err = NULL;
                int r;

                if (st[i] != SETTING_EFFECTIVE)
                        continue;
                if (asprintf_safe(&origin, "%s:%u", file, s->line) < 0)
                        return -ENOMEM;
                k = probe_key_find(s->key);
                if (!k || !streq(s->section, k->unit_section ? "Unit" : strempty(own))) {
                        if (own && streq(s->section, own) && !is_frame_key(s->key)) {
                                _cleanup_(freep) char *n = NULL;
                                if (asprintf_safe(&n, "%s= (%s)", s->key, origin) < 0 ||
                                    strv_extend_unique(&not_applied, n) < 0)
                                        return -ENOMEM;
                        }
                        continue;
                }
                if (k->kind == PK_LIST || k->kind == PK_BINDS || k->kind == PK_TMPFS) {
                        const KeyInfo *ki = rules_key_lookup(rules, u->type, s->section, s->key, version);
                        r = ki ? setting_words(u, s, ki, &fs, &words, diags) :
                                 words_split_quoted(s->value, true, &words);
                        if (r == -ENOMEM)
                                return r;
                        if (r < 0) {
                                (void) diag_add(diags, DIAG_ERROR, file, s->line,
                                                "%s=%s: cannot split the value", s->key, s->value);
                                return -EINVAL;
                        }
                } else {
                        r = setting_expand(u, s, &fs, &value, diags);
                        if (r == -ENOMEM)
                                return r;
                        if (r < 0 && r != -ENXIO) {
                                (void) diag_add(diags, DIAG_ERROR, file, s->line,
                                                "%s=%s: systemd would refuse it", s->key, s->value);
                                return -EINVAL;
                        }
                        if (!value && !(value = strdup(s->value)))
                                return -ENOMEM;
                }
                r = apply(props, k, value, words, origin, &err);
                if (r == -EINVAL) {
                        (void) diag_add(diags, DIAG_ERROR, file, s->line, "%s=%s: %s", s->key, s->value,
                                        err);
                        return r;
                }
                if (r < 0)
                        return r;
        }
        *ret_not_applied = TAKE_PTR(not_applied);
        return 0;
}

int probe_props_assign(TransientProps *props, const char *assignment, const char **ret_error) {
        _cleanup_(freep) char *key = NULL;
        _cleanup_(strv_freep) char **words = NULL;
        const char *eq = strchr(assignment, '='), *value;
        const ProbeKey *k;
        int r;

        *ret_error = NULL;
        if (!eq || eq == assignment) {
                *ret_error = "expected KEY=VALUE";
                return -EINVAL;
        }
        key = strndup_safe(assignment, eq - assignment);
        if (!key)
                return -ENOMEM;
        value = eq + 1;
        k = probe_key_find(key);
        if (!k) {
                *ret_error = "not a sandbox setting bootrace probe can apply (see bootrace probe --help)";
                return -EINVAL;
        }
        if (k->kind == PK_LIST || k->kind == PK_BINDS || k->kind == PK_TMPFS) {
                r = words_split_quoted(value, true, &words);
                if (r == -ENOMEM)
                        return r;
                if (r < 0) {
                        *ret_error = "unbalanced quotes or a bad escape";
                        return -EINVAL;
                }
        } else if (isempty(value)) {
                *ret_error = "empty value";
                return -EINVAL;
        }
        return apply(props, k, value, words, "-p", ret_error);
}

int probe_props_frame(TransientProps *props, const char *description, char * const *argv) {
        TransientProp *p;

        if (!argv || !argv[0] || !path_is_absolute(argv[0]))
                return -EINVAL;
        p = transient_props_add(props, "Description", TPROP_STRING, NULL);
        if (!p || !(p->s = strdup(description)))
                return -ENOMEM;
        p = transient_props_add(props, "Type", TPROP_STRING, NULL);
        if (!p || !(p->s = strdup("oneshot")))
                return -ENOMEM;
        /* pin the unit so its Result survives until we have read it (released on UnrefUnit or disconnect) */
        p = transient_props_add(props, "AddRef", TPROP_BOOL, NULL);
        if (!p)
                return -ENOMEM;
        p->b = true;
        p = transient_props_add(props, "ExecStart", TPROP_EXEC, NULL);
        if (!p || !(p->s = strdup(argv[0])) || !(p->strv = strv_copy(argv)))
                return -ENOMEM;
        return 0;
}
