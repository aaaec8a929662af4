#include "fork.h"
#include "lock.h"
#include "runtime.h"
#include "waitq.h"

static struct semroot semtable[SEMTAB_SIZE];

struct semroot *semroot(const void *addr)
{
	return &semtable[((uintptr_t)addr >> 3) % SEMTAB_SIZE];
}

static struct g **findhead(struct semroot *root, const void *addr)
{
	struct g **link = &root->heads;
	while (*link && (*link)->waitaddr != addr)
		link = &(*link)->waitnext;
	return link;
}

struct g *waitq_head(struct semroot *root, const void *addr)
{
	return *findhead(root, addr);
}

void waitq_enqueue(struct semroot *root, const void *addr, struct g *gp)
{
	struct g **link = findhead(root, addr);
	gp->waitaddr = addr;
	gp->waitlink = NULL;
	if (*link == NULL) {
		gp->waitnext = root->heads;
		gp->waittail = gp;
		root->heads = gp;
	} else {
		(*link)->waittail->waitlink = gp;
		(*link)->waittail = gp;
	}
}

void waitq_remove(struct semroot *root, struct g *gp)
{
	struct g **link = findhead(root, gp->waitaddr);
	struct g *head = *link;
	if (head == gp) {
		struct g *next = gp->waitlink;
		if (next) {
			next->waittail = gp->waittail;
			next->waitnext = gp->waitnext;
			*link = next;
		} else {
			*link = gp->waitnext;
		}
	} else {
		struct g *prev = head;
		while (prev->waitlink != gp)
			prev = prev->waitlink;
		prev->waitlink = gp->waitlink;
		if (head->waittail == gp)
			head->waittail = prev;
	}
	gp->waitaddr = NULL;
	gp->waitlink = gp->waitnext = gp->waittail = NULL;
}

struct g *waitq_dequeue(struct semroot *root, const void *addr)
{
	struct g *head = *findhead(root, addr);
	if (head)
		waitq_remove(root, head);
	return head;
}

void waitq_fork(enum gmp_fork_phase phase)
{
	for (int i = 0; i < SEMTAB_SIZE; i++) {
		if (phase == FORK_PREPARE)
			lock(&semtable[i].lock);
		else if (phase == FORK_PARENT)
			unlock(&semtable[i].lock);
		else
			semtable[i] = (struct semroot){ 0 }; /* the waiters are gone */
	}
}
