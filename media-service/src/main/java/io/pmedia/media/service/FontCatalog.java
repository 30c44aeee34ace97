package io.pmedia.media.service;

import java.awt.Font;
import java.awt.FontFormatException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.common.concurrent.Blocking;
import io.pmedia.common.error.ApiException;
import io.pmedia.common.repository.CreateLock;
import io.pmedia.media.RegisteredFont;
import io.pmedia.media.repository.FontStore;
import io.pmedia.media.template.TextFont;
import io.pmedia.storage.ObjectStore;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;

/**
 * Fonts an operator registers for templates ({@code POST /admin/fonts}): checked to be a TrueType or OpenType font
 * that the text layout can read, stored in the object store under {@code fonts/<name>} (render workers fetch and
 * cache it by name), and listed in PostgreSQL. A name keeps its file: the same file again changes nothing, another
 * file under a registered name is a conflict.
 */
@ApplicationScoped
public class FontCatalog {

    public record Registered(RegisteredFont font, boolean created) {
    }

    static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");
    /** The largest font file: its base64 must fit the 1 MB request body. */
    public static final int MAX_BYTES = 700 * 1024;
    /** Where a registered font's file lives in the object store. */
    public static final String PREFIX = "fonts/";

    private final FontStore fonts;
    private final ObjectStore store;

    public FontCatalog(FontStore fonts, ObjectStore store) {
        this.fonts = fonts;
        this.store = store;
    }

    /** A checked font file. */
    private record Parsed(byte[] bytes, String family, String format, String sha256) {
    }

    /**
     * Registers {@code file} (base64) as the font {@code name}: 201 new, 200 the same file again, 409 another file
     * under that name, 400 naming what is wrong otherwise.
     */
    public Uni<Registered> register(String name, String file) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw ApiException.validation("name: required; lower-case letters, digits and '-', at most 64");
        }
        if (TextFont.named(name) != null) {
            throw ApiException.validation("name: '" + name + "' is a built-in font");
        }
        if (file == null || file.isBlank()) {
            throw ApiException.validation("file: required, the font file in base64");
        }
        // Registrations of one name take turns (CreateLock) from the look-up to the commit: a second file under the
        // name meets the first's row (409) and never overwrites the first's object in the store.
        // programmatic: the file is parsed off the event loop before the transaction, not inside it
        return Blocking.offload(() -> parse(file))
                .flatMap(parsed -> Panache.withTransaction(() -> CreateLock.take("font", name)
                        .flatMap(locked -> fonts.find(name))
                        .flatMap(existing -> existing != null
                                ? Uni.createFrom().item(same(existing, parsed))
                                : Blocking.offload(
                                        () -> store.put(PREFIX + name, parsed.bytes(), "font/" + parsed.format()))
                                        .flatMap(stored -> persist(name, parsed)))));
    }

    @WithSession
    public Uni<List<RegisteredFont>> all() {
        return fonts.all();
    }

    /** The names templates may use besides the built-in ones. */
    @WithSession
    public Uni<Set<String>> names() {
        return fonts.names().map(Set::copyOf);
    }

    private Uni<Registered> persist(String name, Parsed parsed) {
        RegisteredFont font = new RegisteredFont();
        font.name = name;
        font.family = parsed.family();
        font.format = parsed.format();
        font.objectKey = PREFIX + name;
        font.sha256 = parsed.sha256();
        font.sizeBytes = parsed.bytes().length;
        font.createdAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
        return font.<RegisteredFont>persist().map(saved -> new Registered(saved, true));
    }

    private static Registered same(RegisteredFont existing, Parsed parsed) {
        if (!existing.sha256.equals(parsed.sha256())) {
            throw ApiException.conflict("font '" + existing.name
                    + "' is registered with another file; register this one under a new name");
        }
        return new Registered(existing, false);
    }

    private static Parsed parse(String file) {
        byte[] bytes;
        try {
            bytes = Base64.getMimeDecoder().decode(file);
        } catch (IllegalArgumentException e) {
            throw ApiException.validation("file: not base64");
        }
        if (bytes.length > MAX_BYTES) {
            throw ApiException.validation("file: at most " + MAX_BYTES / 1024 + " KiB (this one is "
                    + bytes.length / 1024 + " KiB)");
        }
        String format = format(bytes);
        if (format == null) {
            throw ApiException.validation("file: not a TrueType (.ttf) or OpenType (.otf) font");
        }
        Font font;
        try {
            font = Font.createFont(Font.TRUETYPE_FONT, new ByteArrayInputStream(bytes));
        } catch (FontFormatException | IOException e) {
            throw ApiException.validation("file: the font cannot be read: " + e.getMessage());
        }
        if (font.getNumGlyphs() < 2) {
            throw ApiException.validation("file: the font has no glyphs");
        }
        return new Parsed(bytes, font.getFamily(), format, Canonical.sha256(bytes));
    }

    /** {@code ttf} or {@code otf} by the file's first four bytes; null for anything else. */
    private static String format(byte[] bytes) {
        if (bytes.length < 12) {
            return null;
        }
        int tag = (bytes[0] & 0xff) << 24 | (bytes[1] & 0xff) << 16 | (bytes[2] & 0xff) << 8 | bytes[3] & 0xff;
        return switch (tag) {
            case 0x00010000, 0x74727565 -> "ttf";
            case 0x4f54544f -> "otf";
            default -> null;
        };
    }
}
