/*
 * Text for people and programs: names escaped for messages, JSON
 * strings and errno names.
 */
#include <sys/param.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define LIBBSD_NETBSD_VIS	/* strnvisx() as NetBSD and FreeBSD have it */
#include <vis.h>

#include "lib/text.h"
#include "parse.h"

/* The symbolic name of an errno an affinity file gives, or NULL. */
const char *
text_errno_name(int e)
{
	static const struct {
		int		 e;
		const char	*name;
	} names[] = {
		{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { EIO, "EIO" },
		{ ENXIO, "ENXIO" }, { EAGAIN, "EAGAIN" },
		{ ENOMEM, "ENOMEM" }, { EACCES, "EACCES" },
		{ EFAULT, "EFAULT" }, { EBUSY, "EBUSY" },
		{ ENODEV, "ENODEV" }, { ENOTDIR, "ENOTDIR" },
		{ EISDIR, "EISDIR" }, { EINVAL, "EINVAL" },
		{ ENFILE, "ENFILE" }, { EMFILE, "EMFILE" },
		{ EFBIG, "EFBIG" }, { ENOSPC, "ENOSPC" }, { EROFS, "EROFS" },
		{ ERANGE, "ERANGE" }, { ELOOP, "ELOOP" },
		{ ENAMETOOLONG, "ENAMETOOLONG" }, { EOVERFLOW, "EOVERFLOW" },
		{ EOPNOTSUPP, "EOPNOTSUPP" }, { ESTALE, "ESTALE" },
		{ EDQUOT, "EDQUOT" },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].e == e)
			return names[i].name;
	return NULL;
}

/* An argument for a message, escaped and cut short; two buffers rotate. */
const char *
text_quoted(const char *s)
{
	static char buf[2][264];
	static int i;

	i = !i;
	return perr_quote(buf[i], sizeof(buf[i]), s, strlen(s));
}

/*
 * A name for a terminal, whole: control bytes, backslashes and bytes
 * past ASCII become vis(3) escapes. NULL when memory runs out.
 */
char *
text_escaped(const char *s)
{
	size_t len = strlen(s), i;
	char *t;

	/* what strnvisx() leaves as it is, without its wide-character path */
	for (i = 0; i < len && s[i] >= ' ' && s[i] <= '~' && s[i] != '\\'; i++)
		continue;
	if (i == len)
		return strdup(s);
	if ((t = malloc(4 * len + 1)) != NULL)
		strnvisx(t, 4 * len + 1, s, len,
		    VIS_CSTYLE | VIS_OCTAL | VIS_NL | VIS_TAB);
	return t;
}

/* The length of the well-formed UTF-8 sequence at s (RFC 3629), or 0. */
static int
utf8_len(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	int n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;		/* overlong */
	else if (s[0] == 0xed)
		hi = 0x9f;		/* surrogates */
	else if (s[0] == 0xf0)
		lo = 0x90;		/* overlong */
	else if (s[0] == 0xf4)
		hi = 0x8f;		/* past U+10FFFF */
	for (i = 1; i < n; i++, lo = 0x80, hi = 0xbf)
		if (s[i] < lo || s[i] > hi)
			return 0;
	return n;
}

/*
 * A JSON string. Names are bytes: a renamed network interface may hold
 * any byte, so one that is not part of well-formed UTF-8 becomes U+FFFD
 * and the output stays valid JSON.
 */
void
text_json_string(FILE *fp, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	int n;

	putc('"', fp);
	while (*s != '\0') {
		if (*s == '"' || *s == '\\')
			fprintf(fp, "\\%c", *s);
		else if (*s < 0x20)
			fprintf(fp, "\\u%04x", *s);
		else if ((n = utf8_len(s)) > 0) {
			fwrite(s, 1, n, fp);
			s += n;
			continue;
		} else
			fputs("\\ufffd", fp);
		s++;
	}
	putc('"', fp);
}

/*
 * The edit distance between a and b counting a swap of neighbours as one
 * edit (optimal string alignment), capped: names are short.
 */
size_t
text_distance(const char *a, const char *b)
{
	enum { MAX = 16 };
	size_t d[MAX + 1][MAX + 1], i, j, m = strlen(a), n = strlen(b), c;

	if (m > MAX || n > MAX)
		return MAX;
	for (i = 0; i <= m; i++)
		d[i][0] = i;
	for (j = 0; j <= n; j++)
		d[0][j] = j;
	for (i = 1; i <= m; i++)
		for (j = 1; j <= n; j++) {
			c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			c = MIN(c, MIN(d[i - 1][j], d[i][j - 1]) + 1);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1])
				c = MIN(c, d[i - 2][j - 2] + 1);
			d[i][j] = c;
		}
	return d[m][n];
}
