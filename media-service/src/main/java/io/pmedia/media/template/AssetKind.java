package io.pmedia.media.template;

import java.util.List;

/** The three kinds of vendor asset ({@code global_assets}), with the content types accepted for each. */
public enum AssetKind {
    IMAGE("images", List.of("image/")), VIDEO("videos", List.of("video/")), ICON("icons", List.of("image/"));

    private final String listName;
    private final List<String> contentTypes;

    AssetKind(String listName, List<String> contentTypes) {
        this.listName = listName;
        this.contentTypes = contentTypes;
    }

    /** The name of its list in {@code global_assets}. */
    public String listName() {
        return listName;
    }

    public List<String> contentTypes() {
        return contentTypes;
    }

    public boolean isPicture() {
        return this != VIDEO;
    }
}
