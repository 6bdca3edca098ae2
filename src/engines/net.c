// SPDX-License-Identifier: MIT
/*
 * net, netsplice: the job's I/Os are blocks sent or received over a
 * socket, with fio's meaning, so that either end may be fio.
 *
 * Who waits and who connects: over TCP the job with listen waits for one
 * connection and the other connects to hostname:port; over UDP and unix
 * sockets the reading job (rw=read) waits and the writing one sends to
 * it. Whatever the side, a write job sends its blocks and a read job
 * receives them (a receive waits for the whole block: MSG_WAITALL).
 * init() binds and listens (nothing waits there); start(), after the
 * start gate and startdelay, accepts or connects, so that the measured
 * phase starts with the connection (fio resets its figures there).
 *
 * The wire, as fio's: UDP starts with an open message (8 bytes, big
 * endian "link" and 0x98) from the writer and the reader's figures
 * start when it arrives; each UDP block carries, in its last 24 bytes,
 * a magic number, its sequence number and its size (little endian), from
 * which the reader counts blocks lost (ctx->dropped); at the end the
 * writer sends a close message (8 bytes, little endian "link" and 0x89)
 * over any protocol, and a reader that receives it, or the end of the
 * stream, ends its job. pingpong: each block is sent back by the reader,
 * and the writer's I/O ends when its copy has come back (the round trip).
 *
 * netsplice moves TCP data through a pipe: vmsplice(2) from the block to
 * the pipe and splice(2) to the socket, or splice(2) from the socket to
 * the pipe and vmsplice(2) into the block; UDP and unix sockets use send
 * and recv as in net (as fio's).
 *
 * Every wait (accept, connect, a peer that does not read or send) wakes
 * every 40 ms to look at ctx->stop: Ctrl-C ends the job, closes its
 * sockets and removes the unix socket it made.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#include "clock.h"
#include "door.h"
#include "engine.h"
#include "err.h"
#include "job.h"
#include "optdef.h"
#include "target.h"

#define NET_MAGIC	0x6c696e6bu	/* "link" */
#define NET_OPEN	0x98u
#define NET_CLOSE	0x89u
#define NET_SEQ_MAGIC	0x657375716e556563ull
#define NET_WAKE_MS	40

/* protocol= */
enum net_proto { NET_TCP, NET_TCPV6, NET_UDP, NET_UDPV6, NET_UNIX };

/* The options of net and netsplice (one table: the planner's warning
 * names it once). */
struct net_opts {
	char *hostname;		/* NULL: filename=, if any */
	uint64_t port;		/* 0: unset; clone c: port + c */
	int protocol;		/* enum net_proto */
	bool listen;		/* TCP: wait for the connection */
	bool pingpong;		/* the reader sends each block back */
	bool nodelay;		/* TCP_NODELAY */
	uint64_t window_size;	/* SO_SNDBUF/SO_RCVBUF; 0: system's */
	uint64_t mss;		/* TCP_MAXSEG; 0: system's */
	uint64_t ttl;		/* UDP multicast TTL */
	char *interface;	/* UDP multicast: local IPv4 */
};

#define O(field) offsetof(struct net_opts, field)

static const struct opt_choice protocol_choices[] = {
	{ "tcp", NET_TCP, "TCP over IPv4" },
	{ "tcpv6", NET_TCPV6, "TCP over IPv6" },
	{ "udp", NET_UDP, "UDP over IPv4 (multicast too)" },
	{ "udpv6", NET_UDPV6, "UDP over IPv6" },
	{ "unix", NET_UNIX, "a unix stream socket: hostname= is its "
	  "path" },
	{ NULL, 0, NULL },
};

static const struct opt_def net_options[] = {
	{ .name = "hostname", .type = OPT_STR, .off = O(hostname),
	  .category = "engine",
	  .help = "net: the peer to send to (a name or address; UDP "
		  "reader: a multicast group; unix: the socket's path); "
		  "unset: filename=" },
	{ .name = "port", .type = OPT_UINT, .off = O(port), .def = "0",
	  .min = 0, .max = 65535, .category = "engine",
	  .help = "net: TCP or UDP port to listen on or connect to (clone "
		  "N of numjobs: port+N); needed but for unix" },
	{ .name = "protocol", .alias = "proto", .type = OPT_ENUM,
	  .off = O(protocol), .def = "tcp", .choices = protocol_choices,
	  .category = "engine", .help = "net: the socket's protocol" },
	{ .name = "listen", .type = OPT_BOOL, .off = O(listen), .def = "0",
	  .category = "engine",
	  .help = "net, TCP: wait for the peer's connection instead of "
		  "connecting (no hostname=)" },
	{ .name = "pingpong", .type = OPT_BOOL, .off = O(pingpong),
	  .def = "0", .category = "engine",
	  .help = "net: the reader sends each block back; a write ends when "
		  "its copy is back (latency: the round trip)" },
	{ .name = "nodelay", .type = OPT_BOOL, .off = O(nodelay), .def = "0",
	  .category = "engine", .help = "net, TCP: TCP_NODELAY" },
	{ .name = "window_size", .type = OPT_SIZE, .off = O(window_size),
	  .def = "0", .category = "engine",
	  .help = "net: SO_RCVBUF of a receiver, SO_SNDBUF of a sender "
		  "(both with pingpong); 0: the system's" },
	{ .name = "mss", .type = OPT_SIZE, .off = O(mss), .def = "0",
	  .category = "engine",
	  .help = "net, TCP: TCP_MAXSEG, the largest segment; 0: the "
		  "system's" },
	{ .name = "ttl", .type = OPT_UINT, .off = O(ttl), .def = "1",
	  .min = 0, .max = 255, .category = "engine",
	  .help = "net, UDP multicast: IP_MULTICAST_TTL of what is sent" },
	{ .name = "interface", .type = OPT_STR, .off = O(interface),
	  .category = "engine",
	  .help = "net, UDP multicast: IPv4 address of the interface to "
		  "send or receive on" },
	{ .name = NULL },
};

extern const struct engine_ops engine_net;

/* What a clone's connection is, from its options and its job. */
struct net_conf {
	const char *host;	/* hostname= (or filename=); unix: the
				 * socket's path; NULL: none */
	unsigned port;		/* port= plus the clone's number */
	bool listen, pingpong, nodelay;
	bool receiver;		/* rw reads */
	unsigned ttl, window_size, mss;
	const char *intf;	/* interface=: an IPv4 address */
	uint64_t size;		/* bytes a pass sends (MSG_MORE) */
};

struct neteng {
	struct net_conf o;
	const atomic_int *stop;
	const struct clock *clk;
	bool udp, v6, unixs, splice, waits;	/* waits: the listening end */
	int fd;			/* the connection; UDP: the socket */
	int lfd;		/* listening, until accept */
	int pipe[2];		/* netsplice */
	union {
		struct sockaddr sa;
		struct sockaddr_in in;
		struct sockaddr_in6 in6;
		struct sockaddr_un un;
	} peer;
	socklen_t peerlen;
	struct door_made sock;	/* the socket file this job made */
	bool started;
	uint64_t sent;		/* bytes this pass (MSG_MORE) */
	uint64_t send_seq, recv_seq;
	bool seq_off;		/* the sender's blocks carry no numbers */
};

static bool stopped(const struct neteng *n)
{
	return n->stop && atomic_load_explicit(n->stop, memory_order_relaxed);
}

static bool is_multicast(const char *host)
{
	struct in_addr a;

	return host && inet_pton(AF_INET, host, &a) == 1 &&
	       (ntohl(a.s_addr) >> 28) == 0xe;
}

/* Until fd has events: 0, or -EINTR when stopped, or -errno. */
static int wait_fd(const struct neteng *n, int fd, short events)
{
	struct pollfd p = { .fd = fd, .events = events };
	int r;

	for (;;) {
		if (stopped(n))
			return -EINTR;
		r = poll(&p, 1, NET_WAKE_MS);
		if (r < 0 && errno != EINTR)
			return -errno;
		if (r > 0)
			return 0;
	}
}

static int setopt(int fd, int level, int name, int val)
{
	return setsockopt(fd, level, name, &val, sizeof(val)) ? -errno : 0;
}

/* window_size= and mss= as fio sets them on a new socket. */
static int sock_opts(const struct neteng *n, int fd)
{
	int r = 0;

	if (n->o.window_size && (n->waits || n->o.pingpong))
		r = setopt(fd, SOL_SOCKET, SO_RCVBUF, (int)n->o.window_size);
	if (!r && n->o.window_size && (!n->waits || n->o.pingpong))
		r = setopt(fd, SOL_SOCKET, SO_SNDBUF, (int)n->o.window_size);
	if (!r && n->o.mss && !n->udp && !n->unixs)
		r = setopt(fd, IPPROTO_TCP, TCP_MAXSEG, (int)n->o.mss);
	return r;
}

/* The connection's waits wake up to look at the stop flag. */
static int sock_timeouts(int fd)
{
	struct timeval tv = { 0, NET_WAKE_MS * 1000 };

	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)))
		return -errno;
	return 0;
}

static int nodelay(const struct neteng *n, int fd)
{
	if (!n->o.nodelay || n->udp || n->unixs)
		return 0;
	return setopt(fd, IPPROTO_TCP, TCP_NODELAY, 1);
}

/* The peer's (or, listening, our own) address. */
static int fill_addr(struct neteng *n, bool own)
{
	struct addrinfo hints = { 0 }, *res = NULL;
	const char *h = n->o.host;
	unsigned short port = htons((unsigned short)n->o.port);

	memset(&n->peer, 0, sizeof(n->peer));
	if (n->unixs) {
		if (strlen(h) >= sizeof(n->peer.un.sun_path))
			return -ENAMETOOLONG;
		n->peer.un.sun_family = AF_UNIX;
		strcpy(n->peer.un.sun_path, h);
		n->peerlen = (socklen_t)(offsetof(struct sockaddr_un,
						  sun_path) + strlen(h) + 1);
		return 0;
	}
	if (n->v6) {
		n->peer.in6.sin6_family = AF_INET6;
		n->peer.in6.sin6_port = port;
		n->peerlen = sizeof(n->peer.in6);
		if (own || inet_pton(AF_INET6, h, &n->peer.in6.sin6_addr) == 1)
			return 0;	/* own: in6addr_any (zeroes) */
	} else {
		n->peer.in.sin_family = AF_INET;
		n->peer.in.sin_port = port;
		n->peerlen = sizeof(n->peer.in);
		if (own && !h) {
			n->peer.in.sin_addr.s_addr = htonl(INADDR_ANY);
			return 0;
		}
		if (inet_pton(AF_INET, h, &n->peer.in.sin_addr) == 1)
			return 0;
	}
	hints.ai_family = n->v6 ? AF_INET6 : AF_INET;
	hints.ai_socktype = n->udp ? SOCK_DGRAM : SOCK_STREAM;
	if (getaddrinfo(h, NULL, &hints, &res) || !res)
		return -EHOSTUNREACH;
	if (n->v6)
		n->peer.in6.sin6_addr =
			((struct sockaddr_in6 *)res->ai_addr)->sin6_addr;
	else
		n->peer.in.sin_addr =
			((struct sockaddr_in *)res->ai_addr)->sin_addr;
	freeaddrinfo(res);
	return 0;
}

static int new_socket(const struct neteng *n)
{
	int dom = n->unixs ? AF_UNIX : n->v6 ? AF_INET6 : AF_INET;
	int fd = socket(dom, (n->udp ? SOCK_DGRAM : SOCK_STREAM) |
			SOCK_CLOEXEC, 0);

	return fd < 0 ? -errno : fd;
}

/* The listening end's socket, bound (TCP, unix: listening). */
static int net_listen(struct neteng *n)
{
	struct ip_mreq mr;
	char why[256];
	int fd, r;

	r = fill_addr(n, true);
	if (r)
		return r;
	fd = new_socket(n);
	if (fd < 0)
		return fd;
	n->lfd = fd;
	if (!n->unixs &&
	    ((r = setopt(fd, SOL_SOCKET, SO_REUSEADDR, 1)) ||
	     (r = setopt(fd, SOL_SOCKET, SO_REUSEPORT, 1))))
		return r;
	if ((r = sock_opts(n, fd)))
		return r;
	if (n->udp && n->o.host) {	/* a multicast group (net_plan) */
		memset(&mr, 0, sizeof(mr));
		inet_pton(AF_INET, n->o.host, &mr.imr_multiaddr);
		n->peer.in.sin_addr = mr.imr_multiaddr;
		mr.imr_interface.s_addr = htonl(INADDR_ANY);
		if (n->o.intf)
			inet_pton(AF_INET, n->o.intf, &mr.imr_interface);
		if (setsockopt(fd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &mr,
			       sizeof(mr)))
			return -errno;
	}
	/* unix: the socket file through the door (door.h): a socket left
	 * behind is replaced, as fio does, but never a live one (another
	 * process'), and at the end only the one this job made is removed */
	if (n->unixs)
		r = door_bind_unix(fd, n->udp ? SOCK_DGRAM : SOCK_STREAM,
				   n->o.host, &n->sock, why, sizeof(why));
	else
		r = bind(fd, &n->peer.sa, n->peerlen) ? -errno : 0;
	if (r)
		return r;
	if (n->udp) {
		n->fd = fd;
		n->lfd = -1;
		return sock_timeouts(fd);
	}
	return listen(fd, 10) ? -errno : 0;
}

static int net_setup(struct engine_ctx *ctx, bool splice)
{
	const struct net_opts *eo = ctx->eo;
	const struct job *j = ctx->job;
	struct neteng *n = calloc(1, sizeof(*n));
	int p = eo->protocol, r = 0;

	if (!n)
		return -ENOMEM;
	n->o = (struct net_conf){
		.host = eo->hostname ? eo->hostname : j->target.filename,
		.port = (unsigned)(eo->port ? eo->port + j->plan.clone : 0),
		.listen = eo->listen, .pingpong = eo->pingpong,
		.nodelay = eo->nodelay, .receiver = j->io.rw == RW_READ,
		.ttl = (unsigned)eo->ttl,
		.window_size = (unsigned)eo->window_size,
		.mss = (unsigned)eo->mss, .intf = eo->interface,
		.size = job_per_loop(j, ctx->tgt->region),
	};
	n->stop = ctx->stop;
	n->clk = ctx->clk;
	n->fd = n->lfd = n->pipe[0] = n->pipe[1] = -1;
	n->sock = (struct door_made)DOOR_MADE_NONE;
	n->udp = p == NET_UDP || p == NET_UDPV6;
	n->v6 = p == NET_TCPV6 || p == NET_UDPV6;
	n->unixs = p == NET_UNIX;
	n->waits = (n->udp || n->unixs) ? n->o.receiver : n->o.listen;
	n->splice = splice;
	ctx->priv = n;
	if (n->splice && !n->udp && !n->unixs &&
	    pipe2(n->pipe, O_CLOEXEC))
		return -errno;
	if (n->waits)
		r = net_listen(n);
	else
		r = fill_addr(n, false);
	return r;
}

static int net_init(struct engine_ctx *ctx)
{
	return net_setup(ctx, false);
}

static int netsplice_init(struct engine_ctx *ctx)
{
	return net_setup(ctx, true);
}

/* Connect without blocking past a stop: 0 or -errno. */
static int net_connect(struct neteng *n, int fd)
{
	int fl = fcntl(fd, F_GETFL), err = 0, r;
	socklen_t len = sizeof(err);

	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK))
		return -errno;
	if (connect(fd, &n->peer.sa, n->peerlen)) {
		if (errno != EINPROGRESS)
			return -errno;
		if ((r = wait_fd(n, fd, POLLOUT)))
			return r;
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len))
			return -errno;
		if (err)
			return -err;
	}
	return fcntl(fd, F_SETFL, fl) ? -errno : 0;
}

static void put_le32(unsigned char *p, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void put_le64(unsigned char *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_le64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static bool is_close_msg(const unsigned char *p, int64_t len)
{
	unsigned char m[8];

	put_le32(m, NET_MAGIC);
	put_le32(m + 4, NET_CLOSE);
	return len == 8 && !memcmp(p, m, 8);
}

/* A datagram or a message to the peer, waiting out a full buffer. */
static ssize_t send_to(struct neteng *n, const void *buf, size_t len,
		       int flags)
{
	ssize_t r;

	for (;;) {
		if (n->udp)
			r = sendto(n->fd, buf, len, flags, &n->peer.sa,
				   n->peerlen);
		else
			r = send(n->fd, buf, len, flags | MSG_NOSIGNAL);
		if (r >= 0 || (errno != EAGAIN && errno != EINTR))
			return r < 0 ? -errno : r;
		if (stopped(n))
			return -EINTR;
	}
}

static int net_start(struct engine_ctx *ctx)
{
	struct neteng *n = ctx->priv;
	unsigned char m[8];
	socklen_t len;
	int fd, r;

	if (n->waits && n->udp) {
		/* the writer's open message: our figures start there */
		for (;;) {
			len = sizeof(n->peer);
			r = (int)recvfrom(n->fd, m, sizeof(m), 0, &n->peer.sa,
					  &len);
			if (r >= 0)
				break;
			if (errno != EAGAIN && errno != EINTR)
				return -errno;
			if (stopped(n))
				return -EINTR;
		}
		n->peerlen = len;
		if (r != 8 || m[0] != 'l' || m[1] != 'i' || m[2] != 'n' ||
		    m[3] != 'k' || m[7] != NET_OPEN)
			return -EPROTO;
		n->started = true;
		return 0;
	}
	if (n->waits) {
		if ((r = wait_fd(n, n->lfd, POLLIN)))
			return r;
		len = sizeof(n->peer);
		fd = accept4(n->lfd, &n->peer.sa, &len, SOCK_CLOEXEC);
		if (fd < 0)
			return -errno;
		n->fd = fd;
		close(n->lfd);
		n->lfd = -1;
		if ((r = nodelay(n, fd)))
			return r;
	} else {
		if ((fd = new_socket(n)) < 0)
			return fd;
		n->fd = fd;
		if ((r = nodelay(n, fd)) || (r = sock_opts(n, fd)))
			return r;
		if (n->udp && is_multicast(n->o.host)) {
			struct in_addr a;

			if (n->o.intf && (inet_pton(AF_INET, n->o.intf, &a) !=
					  1 || setsockopt(fd, IPPROTO_IP,
					  IP_MULTICAST_IF, &a, sizeof(a))))
				return errno ? -errno : -EINVAL;
			if (setopt(fd, IPPROTO_IP, IP_MULTICAST_TTL,
				   (int)n->o.ttl))
				return -errno;
		}
		if (!n->udp && (r = net_connect(n, fd)))
			return r;
	}
	if ((r = sock_timeouts(n->fd)))
		return r;
	n->started = true;
	if (n->udp) {
		/* the open message is big endian, as fio's */
		uint32_t be[2] = { htonl(NET_MAGIC), htonl(NET_OPEN) };
		ssize_t s = send_to(n, be, sizeof(be), 0);

		if (s < 0)
			return (int)s;
	}
	return 0;
}

/* netsplice, TCP: len bytes of buf through the pipe to the socket. */
static ssize_t splice_send(struct neteng *n, char *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		struct iovec iov = { buf + done, len - done };
		ssize_t in = vmsplice(n->pipe[1], &iov, 1, 0), out;

		if (in <= 0)
			return done ? (ssize_t)done : in < 0 ? -errno : 0;
		while (in > 0) {
			out = splice(n->pipe[0], NULL, n->fd, NULL,
				     (size_t)in, SPLICE_F_MOVE);
			if (out < 0 && (errno == EAGAIN || errno == EINTR)) {
				if (stopped(n))
					return -EINTR;
				continue;
			}
			if (out <= 0)
				return out < 0 ? -errno : -EPIPE;
			in -= out;
			done += (size_t)out;
		}
	}
	return (ssize_t)done;
}

/* netsplice, TCP: from the socket through the pipe into buf; fewer than
 * len bytes at the end of the stream. */
static ssize_t splice_recv(struct neteng *n, char *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t in = splice(n->fd, NULL, n->pipe[1], NULL,
				    len - done, SPLICE_F_MOVE), out;

		if (in < 0 && (errno == EAGAIN || errno == EINTR)) {
			if (stopped(n))
				return done ? (ssize_t)done : -EINTR;
			continue;
		}
		if (in <= 0)
			return done || !in ? (ssize_t)done : -errno;
		while (in > 0) {
			struct iovec iov = { buf + done, (size_t)in };

			out = vmsplice(n->pipe[0], &iov, 1, 0);
			if (out <= 0)
				return out < 0 ? -errno : -EPIPE;
			in -= out;
			done += (size_t)out;
		}
	}
	return (ssize_t)done;
}

/* Send a whole block: its bytes, or -errno (-EINTR: stopped). */
static ssize_t net_send(struct neteng *n, char *buf, size_t len)
{
	size_t done = 0;
	ssize_t r;
	int flags = 0;

	if (n->udp)
		return send_to(n, buf, len, 0);
	if (n->splice)
		return splice_send(n, buf, len);
	/* more follows: the stack may fill its segments (as fio) */
	if (!n->o.pingpong && n->sent + len < n->o.size)
		flags = MSG_MORE;
	while (done < len) {
		r = send_to(n, buf + done, len - done, flags);
		if (r < 0)
			return done ? (ssize_t)done : r;
		done += (size_t)r;
	}
	n->sent += done;
	return (ssize_t)done;
}

/* Receive a block: its bytes (fewer at the end of a stream, or a UDP
 * datagram that was shorter), or -errno (-EINTR: stopped). */
static ssize_t net_recv(struct neteng *n, char *buf, size_t len)
{
	size_t done = 0;
	ssize_t r;

	if (n->splice && !n->udp)
		return splice_recv(n, buf, len);
	while (done < len) {
		r = recv(n->fd, buf + done, len - done,
			 n->udp ? 0 : MSG_WAITALL);
		if (r > 0) {
			done += (size_t)r;
			if (n->udp)
				break;
			continue;
		}
		if (!r)
			break;
		if (errno != EAGAIN && errno != EINTR)
			return done ? (ssize_t)done : -errno;
		if (stopped(n))
			return done ? (ssize_t)done : -EINTR;
	}
	return (ssize_t)done;
}

/* UDP: the block's number at its end, as fio's writer puts it. */
static void seq_put(struct neteng *n, unsigned char *buf, size_t len)
{
	if (len < 24)
		return;
	put_le64(buf + len - 24, NET_SEQ_MAGIC);
	put_le64(buf + len - 16, n->send_seq++);
	put_le64(buf + len - 8, len);
}

/* UDP: blocks missing before this one count as dropped. */
static void seq_check(struct neteng *n, struct engine_ctx *ctx,
		      const unsigned char *buf, size_t len)
{
	uint64_t seq;

	if (len < 24 || n->seq_off ||
	    get_le64(buf + len - 24) != NET_SEQ_MAGIC)
		return;
	if (get_le64(buf + len - 8) != len) {
		n->seq_off = true;
		return;
	}
	seq = get_le64(buf + len - 16);
	if (seq > n->recv_seq)
		ctx->dropped += seq - n->recv_seq;
	n->recv_seq = seq + 1;
}

static int net_queue(struct engine_ctx *ctx, struct io_req *req)
{
	struct neteng *n = ctx->priv;
	ssize_t r, back;

	if (req->ddir == DDIR_WRITE) {
		if (n->udp)
			seq_put(n, req->buf, req->len);
		r = net_send(n, req->buf, req->len);
		if (r > 0 && n->o.pingpong) {
			back = net_recv(n, req->buf, (size_t)r);
			if (back <= 0)
				r = back ? back : -EPIPE;
		}
	} else {
		r = net_recv(n, req->buf, req->len);
		if (r > 0 && is_close_msg(req->buf, r))
			r = 0;
		if (r > 0 && n->udp)
			seq_check(n, ctx, req->buf, (size_t)r);
		if (r > 0 && n->o.pingpong) {
			back = net_send(n, req->buf, (size_t)r);
			if (back < 0)
				r = back;
		}
	}
	if (r == -EINTR || r == 0)
		return ENGINE_END;
	req->res = r;
	req->t_done = clock_ticks(n->clk);
	return ENGINE_DONE;
}

static void net_exit(struct engine_ctx *ctx)
{
	struct neteng *n = ctx->priv;
	unsigned char m[8];

	if (!n)
		return;
	if (n->started && !n->waits && n->fd >= 0) {
		/* tell the reader we are done, as fio's writer does */
		put_le32(m, NET_MAGIC);
		put_le32(m + 4, NET_CLOSE);
		if (n->udp)
			sendto(n->fd, m, sizeof(m), 0, &n->peer.sa,
			       n->peerlen);
		else
			send(n->fd, m, sizeof(m), MSG_NOSIGNAL |
			     MSG_DONTWAIT);
	}
	if (n->fd >= 0)
		close(n->fd);
	if (n->lfd >= 0)
		close(n->lfd);
	if (n->pipe[0] >= 0)
		close(n->pipe[0]);
	if (n->pipe[1] >= 0)
		close(n->pipe[1]);
	door_remove(&n->sock);
	free(n);
	ctx->priv = NULL;
}

static const char *net_hint(int err)
{
	switch (err) {
	case -EADDRINUSE:
		return "another socket listens on this port (unix: another "
		       "process listens on the socket file; iorig leaves it)";
	case -EPERM:
		return "iorig makes no socket file there: a new name in /dev, "
		       "or a path through another user's symlink in a shared "
		       "directory";
	case -EEXIST:
		return "hostname= names a file that is not a socket";
	case -ECONNREFUSED:
		return "nothing listens there yet: start the receiver first "
		       "(or give this job a startdelay=)";
	case -EHOSTUNREACH:
		return "hostname= does not resolve";
	case -EPROTO:
		return "the first UDP message was not a fio/iorig open "
		       "message";
	default:
		return NULL;
	}
}

#define NET_ABOUT \
	"rw=write sends blocks, rw=read receives them. TCP: the job with\n" \
	"listen waits for one connection on port, the other connects to\n" \
	"hostname:port; UDP and unix: the reader waits (unix: hostname is\n" \
	"the socket's path). Start the receiver first (or startdelay= the\n" \
	"sender): its figures start once connected; it waits until SIGINT.\n" \
	"fio's wire format (UDP open/close messages, block numbers: losses\n" \
	"are dropped_ios), so either end may be fio. pingpong: the reader\n" \
	"sends each block back; the writer's latency is the round trip.\n" \
	"Differs from fio: a receive waits for the whole block (fio counts\n" \
	"part-blocks and loses count of some bytes); random, mixed and trim\n" \
	"jobs, listen with hostname, a sender without one, ports out of\n" \
	"range, UDP blocks over 65507 bytes are refused when planning;\n" \
	"no verify; a unix receiver removes its socket file at the end.\n"

/* A unix receiver's socket file, for the door's plan-time check. */
static int net_names(const struct job *j, struct door_names *l)
{
	const struct net_opts *o = j->eng.eopts;
	const char *host = o->hostname ? o->hostname : j->target.filename;

	/* the unix receiver makes the socket file; the sender connects */
	if (o->protocol != NET_UNIX || j->io.rw != RW_READ || !host)
		return 0;
	if (door_names_add(l, "hostname", "%s", host))
		return -ENOMEM;
	l->v[l->n - 1].socket = true;
	return 0;
}

/*
 * The job's options together, as fio's engine checks them when it starts
 * (here: exit 2, nothing run): a stream is read or written in order
 * (rw=read or write), TCP and UDP need port= (and the clones' ports
 * port+0..numjobs-1 must exist), unix sockets none; listen is for TCP;
 * the connecting end needs hostname= (unix: the socket's path), the
 * listening end none (UDP: but a multicast group).
 */
static int net_plan(struct job *j, struct warn_list *w, struct err_rec *e)
{
	const struct net_opts *o = j->eng.eopts;
	const char *file = j->plan.section_file, *host;
	int line = j->plan.section_line, p = o->protocol;
	bool udp = p == NET_UDP || p == NET_UDPV6;
	bool unixs = p == NET_UNIX, waits;
	struct in_addr a;

	host = o->hostname ? o->hostname : j->target.filename;
	/* fio's unit_base=0 (auto) is bits for net (not netsplice) */
	if (!j->report.unit_base && j->eng.engine == &engine_net)
		j->report.unit_base = 1;
	if (o->window_size > INT32_MAX || o->mss > INT32_MAX) {
		err_set(e, file, line, o->mss > INT32_MAX ? "mss" :
			"window_size", "expected at most 2GiB-1 (a socket "
			"option is an int)");
		return -EINVAL;
	}
	if (j->io.rw != RW_READ && j->io.rw != RW_WRITE) {
		err_set(e, file, line, "rw", "ioengine=%s moves a stream in "
			"order, one way: expected rw=read (receive) or "
			"rw=write (send)%s", j->eng.ioengine,
			j->io.rw == RW_RW ? "; the peer's job is the other "
			"direction" : "");
		return -EINVAL;
	}
	if (unixs && o->port) {
		err_set(e, file, line, "port", "a unix socket has no port: "
			"hostname= is its path");
		return -EINVAL;
	}
	if (!unixs && !o->port) {
		err_set(e, file, line, "port", "ioengine=%s over %s needs "
			"port= (1 to 65535)", j->eng.ioengine, udp ? "UDP" : "TCP");
		return -EINVAL;
	}
	if (o->port && o->port + j->eng.numjobs - 1 > 65535) {
		err_set(e, file, line, "port", "clone %" PRIu64 " would use "
			"port %" PRIu64 " (port + its number): expected at "
			"most 65535", j->eng.numjobs - 1,
			o->port + j->eng.numjobs - 1);
		return -EINVAL;
	}
	if (udp && (j->io.bs_max[DDIR_READ] > 65507 ||
		    j->io.bs_max[DDIR_WRITE] > 65507)) {
		err_set(e, file, line, "bs", "a UDP block is one datagram: "
			"expected at most 65507 bytes (fio retries a larger "
			"one for ever)");
		return -EINVAL;
	}
	if (o->listen && (udp || unixs)) {
		err_set(e, file, line, "listen", "listen is for TCP: over %s "
			"the reading job (rw=read) is the one that waits",
			udp ? "UDP" : "a unix socket");
		return -EINVAL;
	}
	if (host && strchr(host, ',')) {
		err_set(e, file, line, o->hostname ? "hostname" : "filename",
			"'%s': fio 3.33 takes this as one host name (it does "
			"not split host,port,protocol): expected hostname=, "
			"port= and protocol= apart", host);
		return -EINVAL;
	}
	waits = (udp || unixs) ? j->io.rw == RW_READ : o->listen;
	if (!host && (!waits || unixs)) {
		err_set(e, file, line, "hostname", "the %s end needs "
			"hostname= (%s)%s", waits ? "receiving" : "sending",
			unixs ? "the socket's path" : "the peer to send to",
			!udp && !unixs && j->io.rw == RW_READ ?
			"; or listen, to wait for the sender" : "");
		return -EINVAL;
	}
	if (host && waits && !unixs && !(udp && is_multicast(host))) {
		err_set(e, file, line, o->listen ? "listen" : "hostname",
			"'%s': a job that waits for its peer takes no "
			"hostname=%s", host, udp ? " (but a multicast group, "
			"224.0.0.0 to 239.255.255.255)" : "; expected listen "
			"alone, or hostname= alone to connect");
		return -EINVAL;
	}
	if (udp && p == NET_UDPV6 && is_multicast(host)) {
		err_set(e, file, line, "protocol", "multicast is IPv4 only, "
			"as in fio: expected protocol=udp");
		return -EINVAL;
	}
	if (o->interface && inet_pton(AF_INET, o->interface, &a) != 1) {
		err_set(e, file, line, "interface", "'%s': expected the IPv4 "
			"address of a local interface", o->interface);
		return -EINVAL;
	}
	return 0;
}

const struct engine_ops engine_net = {
	.name = "net",
	.help = "blocks sent or received over TCP, UDP, unix sockets",
	.about = NET_ABOUT,
	.flags = ENGINE_SYNC | ENGINE_NOIO | ENGINE_NODATA,
	.options = net_options,
	.options_size = sizeof(struct net_opts),
	.plan = net_plan,
	.names = net_names,
	.init = net_init,
	.start = net_start,
	.queue = net_queue,
	.exit = net_exit,
	.hint = net_hint,
};

const struct engine_ops engine_netsplice = {
	.name = "netsplice",
	.help = "net, TCP data through a pipe (splice, vmsplice)",
	.about = "TCP blocks go through a pipe: vmsplice(2) and splice(2)\n"
		 "for each (UDP and unix: send and recv, as fio's).\n\n"
		 NET_ABOUT,
	.flags = ENGINE_SYNC | ENGINE_NOIO | ENGINE_NODATA,
	.options = net_options,
	.options_size = sizeof(struct net_opts),
	.plan = net_plan,
	.names = net_names,
	.init = netsplice_init,
	.start = net_start,
	.queue = net_queue,
	.exit = net_exit,
	.hint = net_hint,
};
