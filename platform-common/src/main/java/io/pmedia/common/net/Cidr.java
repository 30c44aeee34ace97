package io.pmedia.common.net;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/**
 * An IPv4 or IPv6 network in CIDR notation ({@code 10.0.0.0/8}, {@code 2001:db8::/32}); a bare address is a
 * network of one. Parsing never touches DNS: only address literals are accepted.
 */
public final class Cidr {

    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");

    private final byte[] network;
    private final int prefix;
    private final String text;

    private Cidr(byte[] network, int prefix, String text) {
        this.network = network;
        this.prefix = prefix;
        this.text = text;
    }

    /** Parses {@code address} or {@code address/prefix}; throws IllegalArgumentException naming what is wrong. */
    public static Cidr parse(String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("empty address");
        }
        String trimmed = value.trim();
        int slash = trimmed.indexOf('/');
        String addressPart = slash < 0 ? trimmed : trimmed.substring(0, slash);
        byte[] address = literal(addressPart);
        if (address == null) {
            throw new IllegalArgumentException("'" + value + "' is not an IP address or CIDR range");
        }
        int max = address.length * 8;
        int prefix = max;
        if (slash >= 0) {
            String prefixPart = trimmed.substring(slash + 1);
            if (!prefixPart.matches("\\d{1,3}")) {
                throw new IllegalArgumentException("'" + value + "' has an invalid prefix length");
            }
            prefix = Integer.parseInt(prefixPart);
            if (prefix > max) {
                throw new IllegalArgumentException("'" + value + "' has a prefix longer than " + max + " bits");
            }
        }
        return new Cidr(mask(address, prefix), prefix, trimmed);
    }

    /** A network from raw address bytes (for forms Java's parser folds into IPv4, like {@code ::ffff:0:0/96}). */
    static Cidr of(byte[] address, int prefix, String text) {
        return new Cidr(mask(address, prefix), prefix, text);
    }

    /** The address bytes of an IPv4 or IPv6 literal, or null when {@code value} is not one (no DNS lookup). */
    public static byte[] literal(String value) {
        if (value == null || value.isEmpty() || value.indexOf('%') >= 0) {
            return null;
        }
        var v4 = IPV4.matcher(value);
        if (v4.matches()) {
            byte[] bytes = new byte[4];
            for (int i = 0; i < 4; i++) {
                int octet = Integer.parseInt(v4.group(i + 1));
                if (octet > 255) {
                    return null;
                }
                bytes[i] = (byte) octet;
            }
            return bytes;
        }
        String v6 = value.startsWith("[") && value.endsWith("]") ? value.substring(1, value.length() - 1) : value;
        if (v6.indexOf(':') < 0 || !v6.matches("[0-9A-Fa-f:.]+")) {
            return null;
        }
        try {
            // With a ':' and only hex digits, dots and colons, this parses a literal and never resolves a name.
            InetAddress parsed = InetAddress.getByName(v6);
            return parsed instanceof Inet6Address || parsed instanceof Inet4Address ? parsed.getAddress() : null;
        } catch (UnknownHostException e) {
            return null;
        }
    }

    public boolean contains(InetAddress address) {
        byte[] bytes = address.getAddress();
        return bytes.length == network.length && java.util.Arrays.equals(mask(bytes, prefix), network);
    }

    public boolean contains(byte[] bytes) {
        return bytes.length == network.length && java.util.Arrays.equals(mask(bytes, prefix), network);
    }

    private static byte[] mask(byte[] address, int prefix) {
        byte[] masked = address.clone();
        for (int bit = prefix; bit < masked.length * 8; bit++) {
            masked[bit / 8] &= (byte) ~(0x80 >>> (bit % 8));
        }
        return masked;
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Cidr cidr && cidr.prefix == prefix && java.util.Arrays.equals(cidr.network, network);
    }

    @Override
    public int hashCode() {
        return 31 * java.util.Arrays.hashCode(network) + prefix;
    }
}
