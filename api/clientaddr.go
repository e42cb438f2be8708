package api

import (
	"net"
	"net/netip"
)

// clientKey names the client behind a remote address for per-client limits:
// its IPv4 address, or the /64 network of its IPv6 address (one host
// usually holds a whole /64). Forwarding headers are not trusted.
func clientKey(addr string) string {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	ip = ip.Unmap()
	if ip.Is4() {
		return ip.String()
	}
	prefix, _ := ip.Prefix(64)
	return prefix.String()
}
