package io.pmedia.common.net;

import java.net.InetAddress;
import java.util.List;
import java.util.Optional;

/**
 * Which IP addresses pmedia may connect to on a vendor's behalf. Refuses loopback, private, link-local (cloud
 * metadata included), shared, multicast, documentation and otherwise reserved ranges, also when they hide inside
 * IPv4-mapped, NAT64 or 6to4 IPv6 addresses. Networks in the allow-list are permitted anyway (local mode).
 */
public final class AddressPolicy {

    private record Blocked(Cidr range, String reason) {
    }

    private static final List<Blocked> BLOCKED = List.of(
            blocked("0.0.0.0/8", "an unspecified address"),
            blocked("10.0.0.0/8", "a private address"),
            blocked("100.64.0.0/10", "a shared (carrier-grade NAT) address"),
            blocked("127.0.0.0/8", "a loopback address"),
            blocked("169.254.0.0/16", "a link-local or metadata address"),
            blocked("172.16.0.0/12", "a private address"),
            blocked("192.0.0.0/24", "a reserved address"),
            blocked("192.0.2.0/24", "a documentation address"),
            blocked("192.88.99.0/24", "a reserved address"),
            blocked("192.168.0.0/16", "a private address"),
            blocked("198.18.0.0/15", "a benchmarking address"),
            blocked("198.51.100.0/24", "a documentation address"),
            blocked("203.0.113.0/24", "a documentation address"),
            blocked("224.0.0.0/4", "a multicast address"),
            blocked("240.0.0.0/4", "a reserved address"),
            blocked("::/128", "an unspecified address"),
            blocked("::1/128", "a loopback address"),
            blocked("100::/64", "a discard address"),
            blocked("2001::/23", "a reserved address"),
            blocked("2001:db8::/32", "a documentation address"),
            blocked("fc00::/7", "a private (unique local) address"),
            blocked("fe80::/10", "a link-local address"),
            blocked("fec0::/10", "a site-local address"),
            blocked("ff00::/8", "a multicast address"));

    /** Java parses {@code ::ffff:a.b.c.d} as IPv4 already; raw 16-byte forms still need unwrapping. */
    private static final Cidr IPV4_MAPPED = Cidr.of(
            new byte[]{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 0, 0, 0, 0}, 96, "::ffff:0:0/96");
    private static final Cidr IPV4_COMPATIBLE = Cidr.parse("::/96");
    private static final Cidr NAT64 = Cidr.parse("64:ff9b::/96");
    private static final Cidr NAT64_LOCAL = Cidr.parse("64:ff9b:1::/48");
    private static final Cidr SIX_TO_FOUR = Cidr.parse("2002::/16");

    private final List<Cidr> allowed;

    public AddressPolicy(List<Cidr> allowed) {
        this.allowed = List.copyOf(allowed);
    }

    /** A policy with no exceptions: what production uses. */
    public static AddressPolicy strict() {
        return new AddressPolicy(List.of());
    }

    /** Why {@code address} may not be dialled, or empty when it may. */
    public Optional<String> refusal(InetAddress address) {
        return refusal(address.getAddress());
    }

    public Optional<String> refusal(byte[] address) {
        for (Cidr exception : allowed) {
            if (exception.contains(address)) {
                return Optional.empty();
            }
        }
        if (address.length == 16) {
            byte[] embedded = embeddedIpv4(address);
            if (embedded != null) {
                return refusal(embedded);
            }
        }
        for (Blocked blocked : BLOCKED) {
            if (blocked.range().contains(address)) {
                return Optional.of(blocked.reason());
            }
        }
        return Optional.empty();
    }

    public boolean permits(InetAddress address) {
        return refusal(address).isEmpty();
    }

    private static byte[] embeddedIpv4(byte[] v6) {
        if (IPV4_MAPPED.contains(v6) || NAT64.contains(v6) || NAT64_LOCAL.contains(v6)) {
            return java.util.Arrays.copyOfRange(v6, 12, 16);
        }
        if (SIX_TO_FOUR.contains(v6)) {
            return java.util.Arrays.copyOfRange(v6, 2, 6);
        }
        if (IPV4_COMPATIBLE.contains(v6) && !allZeroExceptLast(v6)) {
            return java.util.Arrays.copyOfRange(v6, 12, 16);
        }
        return null;
    }

    /** {@code ::} and {@code ::1} are themselves blocked; only real IPv4-compatible forms carry an address. */
    private static boolean allZeroExceptLast(byte[] v6) {
        for (int i = 0; i < 15; i++) {
            if (v6[i] != 0) {
                return false;
            }
        }
        return true;
    }

    private static Blocked blocked(String cidr, String reason) {
        return new Blocked(Cidr.parse(cidr), reason);
    }
}
