package io.pmedia.batch.service;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Object-storage paths and the CSV input format of batch tasks (docs/batch.md). A path is {@code <bucket>/<key>}
 * ({@link #candidates} lists the other forms a vendor may write). The file is UTF-8 CSV (RFC 4180: quoted fields, doubled quotes,
 * CRLF or LF) whose first line names the columns: {@code user-id} (required), then personalization fields by name, and
 * {@code image-url}, {@code video-url}, {@code icon-url} (optionally numbered {@code image-url-2}, ...) for assets.
 */
public final class InputFiles {

    /** A parsed object-storage location. */
    public record Location(String bucket, String key) {

        @Override
        public String toString() {
            return bucket + "/" + key;
        }
    }

    /** Why a file cannot be used; the message is shown to the vendor. */
    public static final class InputException extends Exception {
        public InputException(String message) {
            super(message);
        }
    }

    private InputFiles() {
    }

    /**
     * Where {@code path} may be, in the order to try: {@code <bucket>/<key>} (also {@code s3://<bucket>/<key>}, or a
     * path-style URL of the platform's own endpoint {@code http://host:port/<bucket>/<key>}), then the whole path as
     * a key of {@code defaultBucket} (so {@code inputs/x.csv} finds {@code <default>/inputs/x.csv}). Empty when it is
     * none of these.
     */
    public static List<Location> candidates(String path, String defaultBucket,
            Optional<URI> endpoint) {
        String rest = path.strip();
        if (rest.regionMatches(true, 0, "http://", 0, 7) || rest.regionMatches(true, 0, "https://", 0, 8)) {
            URI uri;
            try {
                uri = URI.create(rest);
            } catch (IllegalArgumentException e) {
                return List.of();
            }
            boolean ours = endpoint.isPresent() && uri.getHost() != null
                    && uri.getHost().equalsIgnoreCase(endpoint.get().getHost()) && port(uri) == port(endpoint.get());
            Location location = ours && uri.getRawQuery() == null && uri.getPath() != null
                    ? parse(uri.getPath())
                    : null;
            return location == null ? List.of() : List.of(location);
        }
        List<Location> candidates = new ArrayList<>();
        Location location = parse(rest);
        if (location != null) {
            candidates.add(location);
        }
        if (!rest.regionMatches(true, 0, "s3://", 0, 5)) {
            Location inDefault = parse(defaultBucket + "/" + (rest.startsWith("/") ? rest.substring(1) : rest));
            if (inDefault != null && !inDefault.equals(location)) {
                candidates.add(inDefault);
            }
        }
        return candidates;
    }

    private static int port(URI uri) {
        return uri.getPort() != -1 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
    }

    /** The bucket and key of {@code path}, or null when it is not of the form {@code [s3://]<bucket>/<key>}. */
    public static Location parse(String path) {
        String rest = path.strip();
        if (rest.regionMatches(true, 0, "s3://", 0, 5)) {
            rest = rest.substring(5);
        } else if (rest.startsWith("/")) {
            rest = rest.substring(1);
        }
        int slash = rest.indexOf('/');
        if (slash <= 0 || slash == rest.length() - 1) {
            return null;
        }
        String bucket = rest.substring(0, slash);
        String key = rest.substring(slash + 1);
        if (!bucket.matches("[a-z0-9][a-z0-9.-]{1,62}") || key.contains("..") || key.startsWith("/")
                || key.chars().anyMatch(c -> c < 0x20)) {
            return null;
        }
        return new Location(bucket, key);
    }

    /** Reads at most {@code maxBytes} of UTF-8 text. */
    public static String text(InputStream in, long maxBytes) throws IOException, InputException {
        byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
        if (bytes.length > maxBytes) {
            throw new InputException("the input file is larger than " + maxBytes + " bytes");
        }
        try {
            String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes))
                    .toString();
            return text.startsWith("\uFEFF") ? text.substring(1) : text;
        } catch (CharacterCodingException e) {
            throw new InputException("the input file is not UTF-8 text");
        }
    }

    /** The records of a CSV text, each a list of fields; blank lines are skipped. */
    public static List<List<String>> csv(String text) throws InputException {
        List<List<String>> records = new ArrayList<>();
        List<String> record = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        boolean wasQuoted = false;
        int line = 1;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quoted) {
                if (c == '"') {
                    if (i + 1 < text.length() && text.charAt(i + 1) == '"') {
                        field.append('"');
                        i++;
                    } else {
                        quoted = false;
                    }
                } else {
                    if (c == '\n') {
                        line++;
                    }
                    field.append(c);
                }
            } else if (c == '"') {
                if (field.length() > 0 || wasQuoted) {
                    throw new InputException("line " + line + ": a quote inside an unquoted field");
                }
                quoted = true;
                wasQuoted = true;
            } else if (c == ',') {
                record.add(field.toString());
                field.setLength(0);
                wasQuoted = false;
            } else if (c == '\n' || c == '\r') {
                if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
                    i++;
                }
                record.add(field.toString());
                field.setLength(0);
                wasQuoted = false;
                if (!(record.size() == 1 && record.get(0).isEmpty())) {
                    records.add(record);
                }
                record = new ArrayList<>();
                line++;
            } else {
                if (wasQuoted) {
                    throw new InputException("line " + line + ": text after a closing quote");
                }
                field.append(c);
            }
        }
        if (quoted) {
            throw new InputException("line " + line + ": a quoted field is not closed");
        }
        if (field.length() > 0 || !record.isEmpty() || wasQuoted) {
            record.add(field.toString());
            records.add(record);
        }
        return records;
    }

    /** The header's column names, trimmed and lower-cased; checked for {@code user-id} and duplicates. */
    public static List<String> header(List<String> record) throws InputException {
        List<String> names = new ArrayList<>();
        for (String name : record) {
            String clean = name.strip().toLowerCase(Locale.ROOT);
            if (clean.isEmpty()) {
                throw new InputException("the header line has an empty column name");
            }
            if (names.contains(clean)) {
                throw new InputException("the header line names column '" + clean + "' twice");
            }
            names.add(clean);
        }
        if (!names.contains("user-id")) {
            throw new InputException("the header line has no 'user-id' column");
        }
        return names;
    }
}
