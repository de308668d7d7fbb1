/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What a command's exec left: its exit, captured output and truncated
 * flags, duration, and where it ran. Every accessor takes NULL and answers
 * as for nothing run.
 */
#include "exec_internal.h"

#include <stdlib.h>

sbx_result *sbx__result_new(const sbx_sandbox *sb, bool streamed)
{
    sbx_result *r = sbx__calloc(1, sizeof(*r));
    if (!r)
        return NULL;
    r->tier = sb->tier;
    r->caps = sb->caps;
    r->streamed = streamed;
    r->backend = sbx__strdup(sbx_sandbox_backend(sb));
    r->dsn = sbx__strdup(sbx_sandbox_dsn(sb));
    if (!r->backend || !r->dsn) {
        sbx_result_free(r);
        return NULL;
    }
    return r;
}

void sbx_result_free(sbx_result *result)
{
    if (!result)
        return;
    sbx__buf_clear(&result->out[0]);
    sbx__buf_clear(&result->out[1]);
    free(result->backend);
    free(result->dsn);
    free(result);
}

int sbx_result_exited(const sbx_result *r)
{
    return r ? r->exit.exited : 0;
}

int sbx_result_exit_code(const sbx_result *r)
{
    return r && r->exit.exited ? r->exit.exit_code : -1;
}

int sbx_result_signal(const sbx_result *r)
{
    return r && !r->exit.exited ? r->exit.signal : 0;
}

int sbx_result_timed_out(const sbx_result *r)
{
    return r ? r->exit.timed_out : 0;
}

int sbx_result_oom_killed(const sbx_result *r)
{
    return r ? r->exit.oom_killed : 0;
}

uint64_t sbx_result_net_refused(const sbx_result *r)
{
    return r ? r->exit.net_refused : 0;
}

static const void *stream_data(const sbx_result *r, int i, size_t *len)
{
    if (len)
        *len = r ? r->out[i].len : 0;
    return r && r->out[i].data ? r->out[i].data : "";
}

const void *sbx_result_stdout(const sbx_result *r, size_t *len)
{
    return stream_data(r, 0, len);
}

const void *sbx_result_stderr(const sbx_result *r, size_t *len)
{
    return stream_data(r, 1, len);
}

int sbx_result_truncated(const sbx_result *r, int stream)
{
    if (!r || (stream != SBX_STDOUT && stream != SBX_STDERR))
        return 0;
    return r->truncated[stream - 1];
}

uint64_t sbx_result_duration_ns(const sbx_result *r)
{
    return r ? r->duration_ns : 0;
}

const char *sbx_result_backend(const sbx_result *r)
{
    return r && r->backend ? r->backend : "";
}

int sbx_result_tier(const sbx_result *r)
{
    return r ? r->tier : SBX_TIER_UNKNOWN;
}

uint64_t sbx_result_caps(const sbx_result *r)
{
    return r ? r->caps : 0;
}

const char *sbx_result_dsn(const sbx_result *r)
{
    return r && r->dsn ? r->dsn : "";
}

int sbx_result_streamed(const sbx_result *r)
{
    return r ? r->streamed : 0;
}
