package io.pmedia.media.template;

import java.text.Normalizer;

import io.pmedia.common.net.DestinationPolicy;
import io.pmedia.common.net.FetchException;
import io.pmedia.events.SharePage;

/**
 * Rules for values that come from a vendor's end users: texts are made printable, URLs must be plain http(s)
 * addresses (a request's assets may also name the vendor's own objects as {@code s3://} paths). Whatever passes is still data: the render engine never puts it into a filter graph.
 */
final class VendorInput {

    static final int MAX_URL_LENGTH = 2048;

    private VendorInput() {
    }

    /**
     * Normalized (NFC) text with line breaks kept as {@code \n}, tabs as spaces, and other control and format
     * characters (bidi overrides, for one) removed; zero-width joiners stay, emoji sequences need them.
     */
    static String cleanText(String value) {
        String text = Normalizer.normalize(value.replace("\r\n", "\n").replace('\r', '\n'), Normalizer.Form.NFC);
        StringBuilder out = new StringBuilder(text.length());
        text.codePoints().forEach(c -> {
            if (c == '\n') {
                out.append('\n');
            } else if (c == '\t') {
                out.append(' ');
            } else if (c == 0x200C || c == 0x200D) {
                out.appendCodePoint(c);
            } else if (!Character.isISOControl(c) && Character.getType(c) != Character.FORMAT) {
                out.appendCodePoint(c);
            }
        });
        return out.toString();
    }

    /** Length in characters as a person counts them (code points, not UTF-16 units). */
    static int length(String text) {
        return text.codePointCount(0, text.length());
    }

    /** A plain http(s) URL: the one rule of platform-events ({@link SharePage#isHttpUrl}), for assets as for links. */
    static boolean isHttpUrl(String value) {
        return SharePage.isHttpUrl(value);
    }

    /**
     * A request's asset, stripped: an http(s) URL, or an object of the platform's store spelt {@code s3://bucket/key}
     * (docs/security.md: the vendor's own objects only, which the render worker checks when it fetches; another
     * vendor's reads as missing). A resolution failure naming {@code where} otherwise.
     */
    static String requireAssetUrl(String value, String where) {
        String url = value == null ? "" : value.strip();
        if (!isHttpUrl(url) && !isObjectPath(url)) {
            throw new TemplateResolutionException(where + " is not an http(s) URL or an s3:// object path");
        }
        if (isHttpUrl(url)) {
            try {
                // the fetcher's own rules of form (a port, no credentials), here rather than when the render fails
                DestinationPolicy.parse(url);
            } catch (FetchException e) {
                throw new TemplateResolutionException(where + " cannot be fetched: " + e.getMessage());
            }
        }
        return url;
    }

    /** {@code s3://bucket/key}: a bucket and a key, nothing blank or invisible in it. */
    static boolean isObjectPath(String value) {
        if (value == null || value.length() > MAX_URL_LENGTH
                || !value.regionMatches(true, 0, "s3://", 0, "s3://".length())) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            if (value.charAt(i) <= ' ' || value.charAt(i) == 0x7f) {
                return false;
            }
        }
        int slash = value.indexOf('/', "s3://".length());
        return slash > "s3://".length() && slash < value.length() - 1;
    }

    static boolean isBlank(String value) {
        return value == null || value.isBlank();
    }
}
