package io.pmedia.media.render.store;

import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.media.config.MediaConfig;
import io.pmedia.media.render.graphics.Fonts;
import io.pmedia.storage.ObjectStore;

/**
 * Registered fonts on a render worker: fetched from the object store ({@code fonts/<name>}) on first use and kept in
 * a local directory. A name never changes its file (the font catalog refuses that), so a cached file stays right;
 * a cold worker warms from the store.
 */
@ApplicationScoped
public class StoreFonts implements Fonts.CustomFonts {

    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");

    private final ObjectStore store;
    private final Path cache;

    public StoreFonts(ObjectStore store, MediaConfig config) {
        this.store = store;
        this.cache = config.workDir().resolve("font-cache");
    }

    /** The local file of a registered font, fetched when not cached; empty when no font has that name. */
    @Override
    public Optional<Path> file(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            return Optional.empty();
        }
        return CachedObjects.local(store, "fonts/" + name, cache.resolve(name + ".font"));
    }
}
