/* Name, version and commit of the program (see reports/tool.h). */
#include "reports/tool.h"

/* The Makefile passes these; a compiler run by hand gets honest placeholders. */
#ifndef MAGOS_VERSION
#define MAGOS_VERSION "unknown"
#endif
#ifndef MAGOS_COMMIT
#define MAGOS_COMMIT "unknown"
#endif
#ifndef MAGOS_DOCS_URL
#define MAGOS_DOCS_URL "https://github.com/magosproject/magos-sim/blob/main/docs/"
#endif

const char *tool_name(void)
{
	return "magos-sim";
}

const char *tool_version(void)
{
	return MAGOS_VERSION;
}

const char *tool_commit(void)
{
	return MAGOS_COMMIT;
}

const char *tool_docs_url(void)
{
	return MAGOS_DOCS_URL;
}
