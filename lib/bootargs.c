/*
 * The kernel command line's interrupt and isolation parameters, split as
 * lib/cmdline.c next_arg() splits them and read as their __setup()
 * handlers read them.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/bootargs.h"
#include "lib/text.h"
#include "parse.h"

/*
 * The next "param" or "param=value" of s, quotes removed from a value
 * that is quoted whole; *s moves past it. NULL at the end.
 */
static char *
next_arg(char **s, char **val)
{
	char *p = *s, *start, *eq = NULL;
	bool quoted = false;

	while (isspace((unsigned char)*p))
		p++;
	if (*p == '\0')
		return NULL;
	start = p;
	for (; *p != '\0' && (quoted || !isspace((unsigned char)*p)); p++) {
		if (*p == '"')
			quoted = !quoted;
		else if (*p == '=' && eq == NULL && !quoted)
			eq = p;
	}
	if (*p != '\0')
		*p++ = '\0';
	*s = p;
	*val = NULL;
	if (eq != NULL) {
		*eq = '\0';
		*val = eq + 1;
		if (**val == '"' && (p = strrchr(*val, '"')) != *val &&
		    p[1] == '\0') {
			*p = '\0';
			(*val)++;
		}
	}
	return start;
}

/*
 * A list value in *setp, or NULL: the kernel ignores what does not
 * parse. False when memory ran out.
 */
static bool
parse_list(const char *val, unsigned int nbits, struct cpuset **setp)
{
	struct cpuset *set;
	int rc;

	if ((set = cpuset_new(nbits)) == NULL)
		return false;
	if ((rc = cpulist_parse(set, val, NULL)) != 0) {
		cpuset_free(set);
		return rc != -ENOMEM;
	}
	*setp = set;
	return true;
}

/* isolcpus=[flag,...,]list (housekeeping_isolcpus_setup()) */
static int
parse_isolcpus(const char *val, int *flags)
{
	static const struct {
		const char	*word;
		int		 flag;
	} words[] = {
		{ "nohz,", ISOL_NOHZ },
		{ "domain,", ISOL_DOMAIN },
		{ "managed_irq,", ISOL_MANAGED_IRQ },
	};
	const char *p = val, *comma;
	size_t i;

	*flags = 0;
	while (isalpha((unsigned char)*p)) {
		for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			if (strncmp(p, words[i].word, strlen(words[i].word)) ==
			    0)
				break;
		if (i < sizeof(words) / sizeof(words[0])) {
			*flags |= words[i].flag;
			p += strlen(words[i].word);
			continue;
		}
		/* an unknown flag is skipped; one without a comma ends it */
		if ((comma = strchr(p, ',')) == NULL)
			return -1;
		p = comma + 1;
	}
	if (*flags == 0)
		*flags = ISOL_DOMAIN;
	return p - val;
}

/* false when memory ran out */
static bool
take(char **argp, struct cpuset **setp, const char *val, const char *list,
    unsigned int nbits)
{
	free(*argp);
	cpuset_free(*setp);
	*setp = NULL;
	if ((*argp = strdup(val)) == NULL)
		return false;
	return parse_list(list, nbits, setp);
}

/*
 * 0, or -ENOMEM. Parameters after "--" belong to init and are not the
 * kernel's.
 */
int
bootargs_parse(const char *cmdline, unsigned int nbits, struct bootargs *b)
{
	char *copy, *s, *param, *val;
	int skip, flags;
	bool nomem = false;

	memset(b, 0, sizeof(*b));
	if ((s = copy = strdup(cmdline)) == NULL)
		return -ENOMEM;
	while (!nomem && (param = next_arg(&s, &val)) != NULL) {
		if (strcmp(param, "--") == 0 && val == NULL)
			break;
		if (val == NULL)
			continue;
		if (strcmp(param, "irqaffinity") == 0)
			nomem |= !take(&b->irqaffinity_arg, &b->irqaffinity,
			    val, val, nbits);
		else if (strcmp(param, "nohz_full") == 0)
			nomem |= !take(&b->nohz_full_arg, &b->nohz_full, val,
			    val, nbits);
		else if (strcmp(param, "isolcpus") == 0 &&
		    (skip = parse_isolcpus(val, &flags)) >= 0) {
			nomem |= !take(&b->isolcpus_arg, &b->isolcpus, val,
			    val + skip, nbits);
			b->isolflags = flags;
		}
	}
	free(copy);
	if (nomem) {
		bootargs_free(b);
		return -ENOMEM;
	}
	return 0;
}

void
bootargs_free(struct bootargs *b)
{
	cpuset_free(b->irqaffinity);
	cpuset_free(b->isolcpus);
	cpuset_free(b->nohz_full);
	free(b->irqaffinity_arg);
	free(b->isolcpus_arg);
	free(b->nohz_full_arg);
	memset(b, 0, sizeof(*b));
}
