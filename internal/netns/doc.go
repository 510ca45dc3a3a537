// Package netns builds a test's own small internet out of Linux network
// namespaces, veth pairs and nftables, so that tests can run real
// programs behind the kinds of NAT players sit behind.
//
// Every address lives in namespaces the test made: there is no link and
// no route between them and the machine's own network, and the "public"
// addresses are in 203.0.113.0/24, a range reserved for documentation
// (routed nowhere, and not private, so a relay's deny list of private
// ranges does not catch them). The test's cleanup deletes every namespace.
//
//	                     internet namespace: bridge br0, 203.0.113.0/24
//	  ┌──────────────┬────────────┴──────────┬───────────────────────┐
//	relay          router (wan 203.0.113.20)  router (wan 203.0.113.10)
//	203.0.113.5    │ NAT: Home, Symmetric,    │ NAT: OneToOne
//	(Public)       │ HomeNoUDP                │
//	               │ lan 10.0.0.1             │ lan 10.0.0.1
//	             host 10.0.0.2              host 10.0.0.2
//
// A site is one machine on the internet: Public has its public address on
// its own interface; the others sit at 10.0.0.2 behind a router namespace
// (the same private range at every site, as at every home) whose rules
// are the NAT's:
//
//   - OneToOne, a cloud VM: the router rewrites the public address to
//     10.0.0.2 on the way in (dnat) and back on the way out (snat), ports
//     unchanged; the VM's own interface never sees its public address.
//   - Home, a home router: masquerade, which keeps a flow's source port
//     when it is free (endpoint-independent mapping: one mapping for every
//     destination), and a forward chain that lets in from the WAN only
//     what belongs to a flow the inside opened (ct state
//     established,related) or a forwarded port (ct status dnat), dropping
//     the rest (filtering by address and port), and an input chain that
//     drops what is not a reply before conntrack keeps it: a peer's first
//     datagram, come before the inside's, must not take the mapping's
//     port (it would, on a Linux router that lets it reach its input, and
//     hole punching would fail).
//   - Symmetric: the same firewall, but masquerade random,fully-random: a
//     new random source port for every flow, so the address a STUN server
//     sees is not the one any other peer will.
//   - HomeNoUDP: Home, and every UDP datagram from the LAN dropped, as on
//     networks that allow only TCP out.
//
// Site.Forward opens a port through the router, as a player forwarding it
// would. Host.Command runs a program inside a site's machine.
package netns
