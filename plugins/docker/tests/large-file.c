/* SPDX-License-Identifier: Apache-2.0 */
/*
 * large-file DSN - write a 96 MiB file into a sandbox from a generator and
 * read it back into a checksum, and show neither was held whole in memory:
 * the peak RSS may grow by far less than the file's size. Exits 0 on
 * success, 1 with a message otherwise. Run by docker-files-stream-large.sh.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sandboxio/sandboxio.h>

#define FILE_SIZE ((uint64_t)96 << 20)
#define RSS_GROWTH_MAX_KB (32 * 1024)

typedef struct gen {
    uint64_t left;
    uint64_t state;
    uint64_t sum;
} gen;

static uint8_t next_byte(gen *g)
{
    g->state = g->state * 6364136223846793005u + 1442695040888963407u;
    return (uint8_t)(g->state >> 56);
}

static long produce(void *ud, void *buf, size_t len)
{
    gen *g = ud;
    size_t n = g->left < len ? (size_t)g->left : len;
    uint8_t *p = buf;
    for (size_t i = 0; i < n; i++) {
        p[i] = next_byte(g);
        g->sum = g->sum * 31 + p[i];
    }
    g->left -= n;
    return (long)n;
}

typedef struct check {
    uint64_t seen;
    uint64_t sum;
} check;

static int consume(void *ud, const void *data, size_t len)
{
    check *c = ud;
    const uint8_t *p = data;
    for (size_t i = 0; i < len; i++)
        c->sum = c->sum * 31 + p[i];
    c->seen += len;
    return 0;
}

static long peak_rss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static int die(const char *what, int rc)
{
    const sbx_error *e = sbx_error_last();
    fprintf(stderr, "FAIL: %s: %s %s\n", what, sbx_error_id(rc), e ? e->message : "");
    return 1;
}

int main(int argc, char **argv)
{
    sbx_client *client = NULL;
    sbx_sandbox *sb = NULL;
    int rc;
    if (argc != 2) {
        fprintf(stderr, "usage: large-file DSN\n");
        return 2;
    }
    if ((rc = sbx_client_new(&client)) != SBX_OK)
        return die("sbx_client_new", rc);
    if ((rc = sbx_sandbox_open(&sb, client, argv[1], NULL)) != SBX_OK)
        return die("sbx_sandbox_open", rc);
    long before = peak_rss_kb();
    gen g = {.left = FILE_SIZE, .state = 42};
    if ((rc = sbx_file_write_from(sb, "big/blob.bin", FILE_SIZE, 0600, produce, &g)) != SBX_OK)
        return die("sbx_file_write_from", rc);
    check c = {0};
    if ((rc = sbx_file_read_to(sb, "big/blob.bin", consume, &c)) != SBX_OK)
        return die("sbx_file_read_to", rc);
    long growth = peak_rss_kb() - before;
    int status = 0;
    if (c.seen != FILE_SIZE) {
        fprintf(stderr, "FAIL: read back %llu bytes, wrote %llu\n", (unsigned long long)c.seen,
                (unsigned long long)FILE_SIZE);
        status = 1;
    } else if (c.sum != g.sum) {
        fprintf(stderr, "FAIL: the bytes read back differ from those written\n");
        status = 1;
    } else if (growth > RSS_GROWTH_MAX_KB) {
        fprintf(stderr, "FAIL: peak RSS grew by %ld KiB for a %llu MiB file: held in memory?\n",
                growth, (unsigned long long)(FILE_SIZE >> 20));
        status = 1;
    } else {
        printf("PASS: %llu MiB written and read back, peak RSS grew by %ld KiB\n",
               (unsigned long long)(FILE_SIZE >> 20), growth);
    }
    if ((rc = sbx_sandbox_destroy(sb)) != SBX_OK)
        status = die("sbx_sandbox_destroy", rc);
    sbx_sandbox_free(sb);
    sbx_client_free(client);
    return status;
}
