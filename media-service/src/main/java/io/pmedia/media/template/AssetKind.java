package io.pmedia.media.template;

import java.util.List;

import io.pmedia.events.RenderInput;

/**
 * The kinds of asset a render fetches, with the content types accepted for each. Images, videos and icons fill the
 * slots of {@code global_assets}; audio is a template's sound track.
 */
public enum AssetKind {
    IMAGE("images", "image", List.of("image/")), VIDEO("videos", "video", List.of("video/")), ICON("icons", "icon",
            List.of("image/")), AUDIO("audio", "audio track", List.of("audio/", "application/ogg"));

    /** The kinds a vendor fills through {@code global_assets}, in the order of that object. */
    public static final List<AssetKind> SLOTS = List.of(IMAGE, VIDEO, ICON);

    private final String listName;
    private final String singular;
    private final List<String> contentTypes;

    AssetKind(String listName, String singular, List<String> contentTypes) {
        this.listName = listName;
        this.singular = singular;
        this.contentTypes = contentTypes;
    }

    /** The name of its list in {@code global_assets} and in a template's {@code assets}. */
    public String listName() {
        return listName;
    }

    /** One of it, in a message: "1 image". */
    public String singular() {
        return singular;
    }

    /** Content-type prefixes a fetched asset of this kind may have. */
    public List<String> contentTypes() {
        return contentTypes;
    }

    /** The URLs {@code input} gives for this kind of slot, by index. */
    public List<String> urlsIn(RenderInput input) {
        return switch (this) {
            case IMAGE -> input.images();
            case VIDEO -> input.videos();
            case ICON -> input.icons();
            case AUDIO -> List.of();
        };
    }

    public boolean isPicture() {
        return this == IMAGE || this == ICON;
    }

    /** The slot kind of a list name ({@code images}, {@code videos}, {@code icons}); null for anything else. */
    public static AssetKind ofList(String listName) {
        for (AssetKind kind : SLOTS) {
            if (kind.listName.equals(listName)) {
                return kind;
            }
        }
        return null;
    }
}
