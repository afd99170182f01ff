/*
 * kernel.h - what cppcheck.test tells cppcheck about the kernel (it has no
 * kernel headers): the list-walking macros the module uses, as plain loops
 * over a pointer.  Given with --include: cppcheck 2.10 mis-expands other
 * macros once a function-like macro is defined with -D.
 */
#define hlist_for_each_entry_safe(pos, n, head, member) \
	for ((pos) = (void *)(head), (n) = NULL;;)
#define hlist_for_each_entry_rcu(pos, head, member, ...) \
	for ((pos) = (void *)(head);;)
#define hlist_for_each_entry(pos, head, member) \
	for ((pos) = (void *)(head);;)
#define list_for_each_entry_safe(pos, n, head, member) \
	for ((pos) = (void *)(head), (n) = NULL;;)
#define list_for_each_entry(pos, head, member) \
	for ((pos) = (void *)(head);;)
#define list_for_each_entry_rcu(pos, head, member, ...) \
	for ((pos) = (void *)(head);;)
