package io.pmedia.common.net;

import java.net.URI;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/** Web origins of URLs, as Content-Security-Policy sources name them. */
public final class Origins {

    /** A host a CSP source may carry as it is: a name or an address, nothing that could end or extend the policy. */
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9.\\-\\[\\]:]+");

    private Origins() {
    }

    /** {@code scheme://host[:port]} of an http(s) URL, or empty (another scheme, no host, or a host with odd characters). */
    public static Optional<String> of(String url) {
        if (url == null || url.isBlank()) {
            return Optional.empty();
        }
        try {
            URI uri = URI.create(url.strip());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null
                    || !HOST.matcher(uri.getHost()).matches()) {
                return Optional.empty();
            }
            return Optional.of(scheme + "://" + uri.getHost() + (uri.getPort() > 0 ? ":" + uri.getPort() : ""));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
