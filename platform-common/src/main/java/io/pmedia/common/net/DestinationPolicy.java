package io.pmedia.common.net;

import static io.pmedia.common.error.Messages.abbreviate;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Decides whether a URL may be dialled: an absolute http(s) URL without credentials whose host resolves only to
 * addresses the {@link AddressPolicy} permits. The resolved address is returned so the caller connects to exactly
 * the address that was checked (no second lookup, so DNS rebinding cannot slip a private address in).
 */
public final class DestinationPolicy {

    /** The longest URL in a message. */
    private static final int SHOWN = 203;

    /** A checked destination: connect to {@code address}, speak to {@code host}. */
    public record Destination(URI uri, String host, int port, boolean tls, InetAddress address) {

        /** Path and query to put on the request line. */
        public String requestTarget() {
            String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
            return uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
        }
    }

    private final AddressPolicy addresses;
    private final HostResolver resolver;

    public DestinationPolicy(AddressPolicy addresses, HostResolver resolver) {
        this.addresses = addresses;
        this.resolver = resolver;
    }

    /** Checks the form of a URL only (no DNS): absolute, http or https, a host, no user info. */
    public static URI parse(String value) {
        if (value == null || value.isBlank()) {
            throw new FetchException(FetchException.Reason.BAD_URL, "URL is empty");
        }
        URI uri;
        try {
            uri = new URI(value.trim());
        } catch (URISyntaxException e) {
            throw new FetchException(FetchException.Reason.BAD_URL,
                    "'" + abbreviate(value, SHOWN) + "' is not a valid URL");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new FetchException(FetchException.Reason.BAD_URL,
                    "'" + abbreviate(value, SHOWN) + "' is not an http(s) URL");
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            throw new FetchException(FetchException.Reason.BAD_URL, "'" + abbreviate(value, SHOWN) + "' has no host");
        }
        if (uri.getRawUserInfo() != null) {
            throw new FetchException(FetchException.Reason.BAD_URL,
                    "'" + abbreviate(value, SHOWN) + "' must not carry credentials");
        }
        // java.net.URI takes any digits after the colon (99999, 0): no connection can be made to them
        if (uri.getPort() == 0 || uri.getPort() > 65_535) {
            throw new FetchException(FetchException.Reason.BAD_URL,
                    "'" + abbreviate(value, SHOWN) + "' has no valid port (1 to 65535)");
        }
        return uri;
    }

    /**
     * Resolves the URL's host and checks every address it resolves to. Blocking (DNS): call off the event loop.
     *
     * @throws FetchException BAD_URL, UNRESOLVABLE or REFUSED_ADDRESS
     */
    public Destination check(URI uri) {
        URI checked = parse(uri.toString());
        String host = checked.getHost();
        String bareHost = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        boolean tls = checked.getScheme().equalsIgnoreCase("https");
        int port = checked.getPort() > 0 ? checked.getPort() : tls ? 443 : 80;
        List<InetAddress> resolved = resolve(bareHost);
        for (InetAddress address : resolved) {
            Optional<String> refusal = addresses.refusal(address);
            if (refusal.isPresent()) {
                // The same words as a name that does not resolve: which internal names exist, and what they
                // resolve to, is not the vendor's to learn. The reason stays in the exception's cause for the logs.
                throw new FetchException(FetchException.Reason.REFUSED_ADDRESS, notPublic(bareHost),
                        new IllegalArgumentException(bareHost + " resolves to " + refusal.get()));
            }
        }
        return new Destination(checked, bareHost, port, tls, resolved.get(0));
    }

    private static String notPublic(String host) {
        return "host '" + abbreviate(host, SHOWN) + "' does not resolve to a public address";
    }

    private List<InetAddress> resolve(String host) {
        byte[] literal = Cidr.literal(host);
        if (literal == null && endsInANumber(host)) {
            literal = whatwgIpv4(host);
            if (literal == null) {
                throw new FetchException(FetchException.Reason.BAD_URL,
                        "host '" + abbreviate(host, SHOWN) + "' ends in a number but is not an IPv4 address");
            }
        }
        try {
            if (literal != null) {
                return List.of(InetAddress.getByAddress(host, literal));
            }
            List<InetAddress> resolved = resolver.resolve(host);
            if (resolved.isEmpty()) {
                throw new UnknownHostException(host);
            }
            return resolved;
        } catch (UnknownHostException e) {
            throw new FetchException(FetchException.Reason.UNRESOLVABLE, notPublic(host));
        }
    }

    /**
     * Whether a browser's URL parser takes the host for an IPv4 address (WHATWG URL, "ends in a number"): its last
     * label (a trailing dot aside) is decimal digits or {@code 0x} and hex digits. Such a host is an address in every
     * form a parser accepts ({@code 2130706433}, {@code 0x7f000001}, {@code 0177.1}, {@code 127.1}), never a name to
     * look up: it is checked as the address it stands for.
     */
    static boolean endsInANumber(String host) {
        List<String> parts = labels(host);
        String last = parts.get(parts.size() - 1);
        return !last.isEmpty() && (last.chars().allMatch(c -> c >= '0' && c <= '9')
                || last.matches("(?i)0x[0-9a-f]*"));
    }

    /** The WHATWG URL IPv4 parser: up to four numbers (decimal, {@code 0x} hex or {@code 0} octal); null if invalid. */
    static byte[] whatwgIpv4(String host) {
        List<String> parts = labels(host);
        if (parts.size() > 4) {
            return null;
        }
        long[] numbers = new long[parts.size()];
        for (int i = 0; i < parts.size(); i++) {
            String part = parts.get(i);
            int radix = 10;
            if (part.length() > 1 && (part.startsWith("0x") || part.startsWith("0X"))) {
                radix = 16;
                part = part.substring(2);
            } else if (part.length() > 1 && part.startsWith("0")) {
                radix = 8;
                part = part.substring(1);
            }
            if (part.isEmpty()) {
                numbers[i] = 0;
                continue;
            }
            if (part.length() > 12 || part.charAt(0) == '+' || part.charAt(0) == '-') {
                return null;
            }
            try {
                numbers[i] = Long.parseLong(part, radix);
            } catch (NumberFormatException e) {
                return null;
            }
            if (numbers[i] < 0) {
                return null;
            }
        }
        for (int i = 0; i < numbers.length - 1; i++) {
            if (numbers[i] > 255) {
                return null;
            }
        }
        long last = numbers[numbers.length - 1];
        if (last >= 1L << (8 * (5 - numbers.length))) {
            return null;
        }
        long address = last;
        for (int i = 0; i < numbers.length - 1; i++) {
            address += numbers[i] << (8 * (3 - i));
        }
        return new byte[]{(byte) (address >>> 24), (byte) (address >>> 16), (byte) (address >>> 8), (byte) address};
    }

    private static List<String> labels(String host) {
        List<String> parts = new ArrayList<>(List.of(host.split("\\.", -1)));
        if (parts.size() > 1 && parts.get(parts.size() - 1).isEmpty()) {
            parts.remove(parts.size() - 1);
        }
        return parts;
    }

    public AddressPolicy addresses() {
        return addresses;
    }

}
