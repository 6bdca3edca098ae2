/* SPDX-License-Identifier: MIT */
#ifndef IORIG_NETENG_H
#define IORIG_NETENG_H

struct job;
struct err_rec;

/*
 * ioengine=net, netsplice (src/engines/net.c): the job's options
 * together, at planning, as fio's engine checks them when it starts
 * (here: exit 2, nothing run): a stream is read or written in order
 * (rw=read or write), TCP and UDP need port= (and the clones' ports
 * port+0..numjobs-1 must exist), unix sockets none; listen is for TCP;
 * the connecting end needs hostname= (unix: the socket's path), the
 * listening end none (UDP: but a multicast group). 0, or -EINVAL with e
 * set. Other engines: nothing.
 */
int net_plan(struct job *j, struct err_rec *e);
/* A unix receiver's socket file, added to l for the door's plan-time
 * check (door.h). 0 or -ENOMEM. */
struct door_names;
int net_names(const struct job *j, struct door_names *l);

#endif
