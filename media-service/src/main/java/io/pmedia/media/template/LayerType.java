package io.pmedia.media.template;

import io.pmedia.common.wire.WireName;

/** What a layer of a segment shows, by the {@code type} a template spells ({@code text}, {@code image}, ...). */
public enum LayerType implements WireName {
    TEXT("text", null), IMAGE("image", AssetKind.IMAGE), ICON("icon", AssetKind.ICON), VIDEO("video",
            AssetKind.VIDEO), SPEECH("speech", null), SHAPE("shape", null), LOTTIE("lottie", null);

    private final String wire;
    private final AssetKind assetKind;

    LayerType(String wire, AssetKind assetKind) {
        this.wire = wire;
        this.assetKind = assetKind;
    }

    /** As a template spells it. */
    @Override
    public String wire() {
        return wire;
    }

    /** The kind of asset a picture layer shows; null for text, speech, shapes and lottie. */
    public AssetKind assetKind() {
        return assetKind;
    }

    /** The type a template names, or null for a missing or unknown one (the validator reports it). */
    public static LayerType ofWire(String value) {
        return WireName.find(LayerType.class, value);
    }
}
