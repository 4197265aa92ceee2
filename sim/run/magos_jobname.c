/* The Workspace of a Magos Job, from the Job's name (magos_jobname.h). */
#include "sim/run/magos_jobname.h"

#include <string.h>

bool mjn_workspace(const char *job, const char *type, char *out, size_t len)
{
	size_t n = strlen(job), cut;

	if (n < 15 || job[n - 9] != '-')
		return false;
	for (size_t i = n - 8; i < n; i++)
		if (!((job[i] >= '0' && job[i] <= '9') || (job[i] >= 'a' && job[i] <= 'f')))
			return false;
	if ((!type || strcmp(type, "apply") == 0) && memcmp(job + n - 15, "-apply", 6) == 0)
		cut = n - 15;
	else if ((!type || strcmp(type, "plan") == 0) && memcmp(job + n - 14, "-plan", 5) == 0)
		cut = n - 14;
	else
		return false;
	if (cut == 0 || cut >= len)
		return false;
	memcpy(out, job, cut);
	out[cut] = '\0';
	return true;
}
