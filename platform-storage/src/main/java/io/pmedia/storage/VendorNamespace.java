package io.pmedia.storage;

import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The rule of per-vendor object namespaces (contracts.md, "Vendor data in object storage"): everything the platform
 * keeps for a vendor lives under {@code <kind>/<client-id>/...}, and a vendor may name only keys under its own
 * client id. Keys are compared as stored: the client id in a key is the canonical (lower-case) uuid, and a key with an
 * empty, {@code .} or {@code ..} segment is no key at all (a filesystem-backed store could read it as a path).
 */
public final class VendorNamespace {

    /** What kinds of object a vendor owns; the first segment of every vendor key. */
    public enum Kind {
        /** Files a vendor uploads (batch input files, images it renders with). */
        INPUTS("inputs"),
        /** Batch task outputs: the output file and each row's video. */
        BATCH("batch"),
        /** Realtime request outputs. */
        MEDIA("media"),
        /** Try-on outputs. */
        VTON("vton"),
        /** Rendered segments kept for reuse: the segment cache of the vendor's template versions. */
        CACHE("cache");

        private final String prefix;

        Kind(String prefix) {
            this.prefix = prefix;
        }

        /** The key prefix of this kind for one vendor: {@code <kind>/<client-id>/}. */
        public String prefix(UUID clientId) {
            return prefix + "/" + clientId + "/";
        }
    }

    /**
     * The playlist of a template version's cached opening (docs/media.md, "Progressive delivery"): an HLS EVENT
     * playlist whose segment lines are object keys, not URLs. media-service's chunk cache writes it when it keeps the
     * opening of a render of that version; engagement-service names those segments in the stream of a link rendered
     * on view the moment it claims the render, so the page plays the opening before any worker has the render.
     */
    public static String templateOpening(UUID clientId, UUID templateId, int version) {
        return Kind.CACHE.prefix(clientId) + templateId + "/" + version + "/opening.m3u8";
    }

    private static final Pattern KIND = Pattern.compile("[a-z][a-z0-9-]{0,31}");
    private static final int MAX_KEY_LENGTH = 1024;

    private VendorNamespace() {
    }

    /** Whether {@code key} lies in {@code clientId}'s namespace, whatever its kind. */
    public static boolean owns(UUID clientId, String key) {
        Optional<String> clean = clean(key);
        if (clean.isEmpty()) {
            return false;
        }
        String[] segments = clean.get().split("/", 3);
        return segments.length == 3 && KIND.matcher(segments[0]).matches()
                && segments[1].equals(clientId.toString());
    }

    /**
     * The key itself when it is well formed: 1 to 1024 characters, segments separated by single slashes, none empty,
     * {@code .} or {@code ..}, no control character or backslash. Empty otherwise.
     */
    public static Optional<String> clean(String key) {
        if (key == null || key.isEmpty() || key.length() > MAX_KEY_LENGTH) {
            return Optional.empty();
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < 0x20 || c == 0x7f || c == '\\') {
                return Optional.empty();
            }
        }
        for (String segment : key.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                return Optional.empty();
            }
        }
        return Optional.of(key);
    }
}
