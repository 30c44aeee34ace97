package io.pmedia.media.template;

import io.pmedia.common.wire.WireName;

/** The container and codecs of one output of a render, by the {@code format} a template spells. */
public enum OutputFormat implements WireName {
    /** H.264 and AAC, {@code +faststart}. */
    MP4("mp4", "mp4", "video/mp4"),
    /** VP9 and Opus. */
    WEBM("webm", "webm", "video/webm"),
    /** An animated GIF with its own palette, no sound. */
    GIF("gif", "gif", "image/gif");

    private final String wire;
    private final String extension;
    private final String contentType;

    OutputFormat(String wire, String extension, String contentType) {
        this.wire = wire;
        this.extension = extension;
        this.contentType = contentType;
    }

    /** As a template spells it. */
    @Override
    public String wire() {
        return wire;
    }

    public String extension() {
        return extension;
    }

    public String contentType() {
        return contentType;
    }

    /** The format a template names, or null for an unknown one. */
    public static OutputFormat ofWire(String value) {
        return WireName.find(OutputFormat.class, value);
    }
}
