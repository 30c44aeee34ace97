package io.pmedia.media.template;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import io.pmedia.events.FrameSegment;
import io.pmedia.events.RenderInput;
import io.pmedia.graphics.lottie.LottieFile;

/**
 * Applies one customer's data to a template: fills fields and asset slots, applies the cohort rules, then the
 * request's {@code frame_segments}, and fails with a message naming the problem in the vendor's terms when the data
 * cannot serve the template. Pure and deterministic (no I/O, no clock), so the service runs it when it accepts a
 * request, to refuse early, and the render worker runs it again on the same inputs.
 * <p>
 * Order of application: cohort rules first (a segment's {@code cohorts}, then its first matching variant), then
 * {@code frame_segments}. A vendor's directive cannot bring back a segment the cohort rules leave out.
 */
public final class TemplateResolver {

    static final String BACKGROUND = "background";
    static final int DEFAULT_TEXT_SIZE = 48;
    static final int DEFAULT_MAX_LINES = 2;
    public static final double DEFAULT_LINE_HEIGHT = 1.2;
    static final String DEFAULT_TEXT_COLOR = "#ffffff";
    static final String DEFAULT_CANVAS_COLOR = "#000000";
    static final double DEFAULT_TONE_HZ = 440;
    static final double DEFAULT_TONE_VOLUME = 0.1;
    static final double DEFAULT_TRACK_FADE_OUT = 1.0;
    static final int LISTED_NAMES = 10;
    static final String DEFAULT_VOICE = "en";
    static final int DEFAULT_SPEECH_RATE = 165;
    static final String DEFAULT_TRANSITION = "fade";
    static final double DEFAULT_TRANSITION_SECONDS = 0.5;
    static final double DEFAULT_DUCK = 0.3;
    /** Seconds of quiet after the last speech of a segment that lasts as long as its speech. */
    static final double SPEECH_PAUSE = 0.4;
    static final double CHARACTERS_PER_WORD = 6;
    static final int LISTED_NAME_LENGTH = 64;

    private TemplateResolver() {
    }

    /**
     * @throws TemplateResolutionException with a message for the vendor when the data cannot serve the template
     */
    public static ResolvedVideo resolve(TemplateDefinition template, RenderInput input) {
        return resolve(template, input, TemplateResolver::estimate);
    }

    /**
     * How long a speech lasts, in seconds: measured from the synthesised audio by the render worker, estimated
     * anywhere else (acceptance, previews).
     */
    @FunctionalInterface
    public interface SpeechLengths {
        double seconds(String text, String voice, int rate);
    }

    /** An estimate of a speech's length: about six characters a word at {@code rate} words a minute. */
    public static double estimate(String text, String voice, int rate) {
        return VendorInput.length(text) / CHARACTERS_PER_WORD / rate * 60;
    }

    /**
     * As {@link #resolve(TemplateDefinition, RenderInput)}, with segments of {@code "duration": "speech"} as long as
     * {@code lengths} says their speech lasts.
     *
     * @throws TemplateResolutionException with a message for the vendor when the data cannot serve the template
     */
    public static ResolvedVideo resolve(TemplateDefinition template, RenderInput input, SpeechLengths lengths) {
        String useCase = "use case '" + template.useCaseId() + "'";
        Map<String, String> fields = RequestValues.fields(template, input, useCase);
        Map<AssetKind, List<String>> slots = RequestValues.slots(template, input, useCase);
        Map<String, FrameSegment> directives = RequestValues.directives(template, input, useCase);

        List<Planned> planned = new ArrayList<>();
        List<TemplateDefinition.Segment> segments = template.segmentsOrEmpty();
        for (int i = 0; i < segments.size(); i++) {
            TemplateDefinition.Segment segment = segments.get(i);
            if (segment.cohorts() != null && !segment.cohorts().isEmpty()
                    && segment.cohorts().stream().noneMatch(input.cohorts()::contains)) {
                continue;
            }
            TemplateDefinition.Variant variant = segment.variantsOrEmpty().stream()
                    .filter(v -> v.cohorts() != null && v.cohorts().stream().anyMatch(input.cohorts()::contains))
                    .findFirst().orElse(null);
            FrameSegment directive = directives.get(segment.id());
            if (variant != null && Boolean.TRUE.equals(variant.skip())
                    || directive != null && Boolean.TRUE.equals(directive.skip())) {
                continue;
            }
            planned.add(new Planned(i, segment, variant, directive));
        }
        if (planned.isEmpty()) {
            throw new TemplateResolutionException("nothing left to render: frame_segments and the cohort rules of "
                    + useCase + " leave out every segment");
        }
        planned.sort(Comparator.comparing((Planned p) -> p.order() == null ? 1 : 0)
                .thenComparing(p -> p.order() == null ? 0 : p.order())
                .thenComparing(Planned::index));

        TemplateDefinition.Canvas canvas = template.canvas();
        List<ResolvedVideo.Segment> resolved = new ArrayList<>();
        for (Planned plan : planned) {
            resolved.add(segment(canvas, plan, fields, slots, template.assetsOrEmpty(), lengths));
        }
        resolved = transitions(resolved);
        int frames = new ResolvedVideo(canvas, resolved, ResolvedVideo.Audio.silence()).frames();
        double total = (double) frames / canvas.fps();
        if (total > TemplateLimits.MAX_DURATION + 1e-9) {
            throw new TemplateResolutionException("the video would last " + seconds(total) + " s; at most "
                    + seconds(TemplateLimits.MAX_DURATION) + " s");
        }
        TemplateDefinition.Captions captions = template.captions();
        return new ResolvedVideo(canvas, resolved, audio(template.audio(), total), outputs(template),
                captions != null && Boolean.TRUE.equals(captions.burnIn()),
                captions != null && Boolean.TRUE.equals(captions.textLayers()));
    }

    /**
     * Each segment's transition shortened to what both sides can give (less than either's frames); the last
     * segment's dropped, there is nothing to pass into.
     */
    private static List<ResolvedVideo.Segment> transitions(List<ResolvedVideo.Segment> segments) {
        List<ResolvedVideo.Segment> out = new ArrayList<>();
        for (int k = 0; k < segments.size(); k++) {
            ResolvedVideo.Segment segment = segments.get(k);
            ResolvedVideo.Transition transition = segment.transition();
            if (transition != null) {
                int room = k + 1 < segments.size()
                        ? Math.min(segment.frames(), segments.get(k + 1).frames()) - 1
                        : 0;
                int frames = Math.min(transition.frames(), room);
                transition = frames < 1 ? null : new ResolvedVideo.Transition(transition.type(), frames);
            }
            out.add(segment.withTransition(transition));
        }
        return out;
    }

    private static List<ResolvedVideo.Output> outputs(TemplateDefinition template) {
        if (template.outputsOrEmpty().isEmpty()) {
            return List.of(ResolvedVideo.Output.main());
        }
        return template.outputsOrEmpty().stream()
                .map(o -> new ResolvedVideo.Output(o.name(), OutputFormat.ofWire(o.format()),
                        o.height() == null ? 0 : o.height(), o.fps() == null ? 0 : o.fps(),
                        o.duration() == null ? 0 : o.duration()))
                .toList();
    }

    /**
     * The request's personalization fields that the template does not use, in the order given: they are ignored
     * (contracts.md, request leniency) and named in the acceptance message.
     */
    public static List<String> ignoredFields(TemplateDefinition template, RenderInput input) {
        Set<String> declared = Set.copyOf(template.fieldsOrEmpty().stream().map(TemplateDefinition.Field::name)
                .toList());
        return input.fields().keySet().stream().filter(name -> !declared.contains(name)).toList();
    }

    /**
     * Names for a message, comma-separated: at most {@value #LISTED_NAMES} of them, each cleaned like any vendor
     * text and cut to {@value #LISTED_NAME_LENGTH} characters, then how many more there are.
     */
    public static String nameList(List<String> names) {
        List<String> shown = names.stream().limit(LISTED_NAMES).map(name -> {
            String clean = VendorInput.cleanText(name).replace('\n', ' ');
            return VendorInput.length(clean) <= LISTED_NAME_LENGTH
                    ? clean
                    : clean.substring(0, clean.offsetByCodePoints(0, LISTED_NAME_LENGTH)) + "...";
        }).toList();
        return String.join(", ", shown)
                + (names.size() > LISTED_NAMES ? " and " + (names.size() - LISTED_NAMES) + " more" : "");
    }

    /** A segment that will be shown, with what changes it. */
    private record Planned(int index, TemplateDefinition.Segment segment, TemplateDefinition.Variant variant,
            FrameSegment directive) {

        Integer order() {
            return directive == null ? null : directive.order();
        }
    }

    private static ResolvedVideo.Segment segment(TemplateDefinition.Canvas canvas, Planned plan,
            Map<String, String> fields, Map<AssetKind, List<String>> slots, TemplateDefinition.AssetSlots declared,
            SpeechLengths lengths) {
        TemplateDefinition.Segment segment = plan.segment();
        TemplateDefinition.Variant variant = plan.variant();
        FrameSegment directive = plan.directive();

        boolean variantLayers = variant != null && variant.layers() != null;
        List<TemplateDefinition.Layer> layers = variantLayers ? variant.layers() : segment.layersOrEmpty();
        // layer timings are written for the duration next to them; a new duration stretches them in proportion
        double written = segment.speechTimed() ? spoken(layers, fields, lengths) : segment.seconds();
        double authored = variantLayers && variant.duration() != null ? variant.duration() : written;
        double planned = variant != null && variant.duration() != null ? variant.duration() : written;
        double wanted = directive != null && directive.duration() != null ? directive.duration() : planned;
        int frames = Math.max(1, (int) Math.round(wanted * canvas.fps()));
        double duration = (double) frames / canvas.fps();
        double stretch = duration / authored;
        double frame = 1.0 / canvas.fps();

        List<ResolvedVideo.Layer> resolved = new ArrayList<>();
        // whether anything of the request shows: then the segment cannot be rendered once for everyone
        boolean personal = false;
        // which of the resolved layers do: the chunk cache keeps the frames where none of them shows
        List<Integer> personalLayers = new ArrayList<>();
        for (TemplateDefinition.Layer layer : layers) {
            double start = (layer.start() == null ? 0 : layer.start()) * stretch;
            double end = Math.min(duration, (layer.end() == null ? authored : layer.end()) * stretch);
            if (end - start < frame - 1e-9) {
                continue;
            }
            double[] fades = fades(either(layer.fadeIn(), layer.fade()), either(layer.fadeOut(), layer.fade()),
                    end - start);
            if (layer.layerType() == LayerType.SPEECH) {
                String text = spokenText(layer, fields);
                personal = true;
                if (text != null) {
                    personalLayers.add(resolved.size());
                    resolved.add(new ResolvedVideo.Speech(layer.id() == null ? "speech" : layer.id(), text,
                            voice(layer), rate(layer), start, end));
                }
            } else if (layer.layerType() == LayerType.TEXT) {
                boolean overridden = directive != null && layer.id() != null
                        && directive.texts().containsKey(layer.id());
                String source = overridden ? directive.texts().get(layer.id()) : layer.text();
                boolean mine = overridden || Placeholders.PATTERN.matcher(source).find();
                personal |= mine;
                String text = Placeholders.substitute(source, fields, true);
                if (text == null) {
                    continue;
                }
                if (mine) {
                    personalLayers.add(resolved.size());
                }
                int size = layer.size() == null ? DEFAULT_TEXT_SIZE : layer.size();
                String x = position(layer.x());
                resolved.add(new ResolvedVideo.Text(text,
                        layer.font() == null ? TextFont.DEFAULT.fontName() : layer.font(), size,
                        layer.color() == null ? DEFAULT_TEXT_COLOR : layer.color(), layer.boxColor(),
                        layer.shadowColor(), x, position(layer.y()),
                        layer.align() != null ? layer.align() : isNumber(x) ? "left" : x,
                        layer.maxWidth(), layer.maxLines() == null ? DEFAULT_MAX_LINES : layer.maxLines(),
                        layer.minSize() != null ? layer.minSize() : Math.max(8, (int) Math.round(size * 0.6)),
                        layer.lineHeight() == null ? DEFAULT_LINE_HEIGHT : layer.lineHeight(),
                        start, end, fades[0], fades[1], layer.animate(),
                        MotionKeys.stretched(layer.keyframes(), stretch), layer.fill(),
                        layer.boxFill()));
            } else if (layer.layerType() == LayerType.LOTTIE) {
                ResolvedVideo.Lottie lottie = lottie(layer, fields, slots.get(AssetKind.IMAGE),
                        declared.of(AssetKind.IMAGE), start, end, fades, stretch);
                boolean mine = !lottie.texts().isEmpty() && texts(layer).values().stream()
                        .anyMatch(text -> Placeholders.PATTERN.matcher(text).find())
                        || personalImages(layer, slots.get(AssetKind.IMAGE), declared.of(AssetKind.IMAGE));
                personal |= mine;
                if (mine) {
                    personalLayers.add(resolved.size());
                }
                resolved.add(lottie);
            } else if (layer.layerType() == LayerType.SHAPE) {
                resolved.add(new ResolvedVideo.Shape(layer.shape(), layer.x() == null ? 0 : layer.x().asInt(),
                        layer.y() == null ? 0 : layer.y().asInt(), layer.width(), layer.height(), layer.radius(),
                        layer.path(), layer.fill(), layer.stroke(), layer.shadow(),
                        MotionKeys.stretched(layer.keyframes(), stretch), start, end,
                        fades[0], fades[1]));
            } else {
                AssetKind kind = layer.assetKind();
                String url = directive != null && layer.id() != null ? directive.assets().get(layer.id()) : null;
                boolean mine = url != null;
                if (url == null) {
                    url = slots.get(kind).get(layer.asset());
                    mine = url != null && !url.equals(declared.of(kind).get(layer.asset()).defaultUrl());
                }
                personal |= mine;
                if (url == null) {
                    continue;
                }
                if (mine) {
                    personalLayers.add(resolved.size());
                }
                resolved.add(new ResolvedVideo.Picture(url, kind, position(layer.x()), position(layer.y()),
                        layer.width(), layer.height(), fit(layer.fit()), start, end,
                        fades[0], fades[1], Motion.ofWire(layer.motion()),
                        MotionKeys.stretched(layer.keyframes(), stretch)));
            }
        }

        TemplateDefinition.Background background = variant != null && variant.background() != null
                ? variant.background()
                : segment.background();
        String override = directive == null ? null : directive.assets().get(BACKGROUND);
        ResolvedVideo.Background shown = background(canvas, background, override, slots);
        if (background != null && background.gradient() != null && shown.url() == null) {
            // a gradient background is a shape over the whole canvas under every layer, drawn by the engine
            resolved.add(0, new ResolvedVideo.Shape("rect", 0, 0, canvas.width(), canvas.height(), null, null,
                    background.gradient(), null, null, null, 0, duration, 0, 0));
            personalLayers.replaceAll(j -> j + 1);
        }
        boolean personalBackground = shown.url() != null && !shown.url().equals(defaultUrl(background, declared));
        personal |= personalBackground;
        double[] fades = fades(either(segment.fadeIn(), segment.fade()), either(segment.fadeOut(), segment.fade()),
                duration);
        TemplateDefinition.Transition transition = segment.transition();
        return new ResolvedVideo.Segment(segment.id(), frames, duration,
                shown, Math.min(fades[0], duration / 2),
                Math.min(fades[1], duration / 2), resolved, transition == null
                        ? null
                        : new ResolvedVideo.Transition(transition.type() == null
                                ? DEFAULT_TRANSITION
                                : transition.type(),
                                (int) Math.round((transition.duration() == null
                                        ? DEFAULT_TRANSITION_SECONDS
                                        : transition.duration()) * canvas.fps())),
                personal, personalLayers, personalBackground);
    }

    /** How long a segment of {@code "duration": "speech"} lasts: to the end of its last speech, and a pause. */
    private static double spoken(List<TemplateDefinition.Layer> layers, Map<String, String> fields,
            SpeechLengths lengths) {
        double end = 0;
        for (TemplateDefinition.Layer layer : layers) {
            String text = layer.layerType() == LayerType.SPEECH ? spokenText(layer, fields) : null;
            if (text != null) {
                double start = layer.start() == null ? 0 : layer.start();
                end = Math.max(end, start + lengths.seconds(text, voice(layer), rate(layer)));
            }
        }
        return Math.min(TemplateLimits.MAX_DURATION, Math.max(TemplateLimits.MIN_SEGMENT_DURATION,
                end + SPEECH_PAUSE));
    }

    /** A speech layer's text with its placeholders filled, on one line; null when nothing is left to say. */
    private static String spokenText(TemplateDefinition.Layer layer, Map<String, String> fields) {
        String text = Placeholders.substitute(layer.text(), fields);
        return text == null ? null : text.replaceAll("\\s+", " ");
    }

    private static String voice(TemplateDefinition.Layer layer) {
        return layer.voice() == null ? DEFAULT_VOICE : layer.voice();
    }

    private static int rate(TemplateDefinition.Layer layer) {
        return layer.rate() == null ? DEFAULT_SPEECH_RATE : layer.rate();
    }

    private static Double either(Double specific, Double shorthand) {
        return specific != null ? specific : shorthand;
    }

    /** Fade lengths that fit the time on screen: both shrink in proportion when together they are longer. */
    private static double[] fades(Double fadeIn, Double fadeOut, double span) {
        double in = fadeIn == null ? 0 : fadeIn;
        double out = fadeOut == null ? 0 : fadeOut;
        if (in + out > span) {
            double scale = span / (in + out);
            in *= scale;
            out *= scale;
        }
        return new double[]{in, out};
    }

    private static ResolvedVideo.Background background(TemplateDefinition.Canvas canvas,
            TemplateDefinition.Background background, String override, Map<AssetKind, List<String>> slots) {
        String canvasColor = canvas.background() == null ? DEFAULT_CANVAS_COLOR : canvas.background();
        if (background == null) {
            return new ResolvedVideo.Background(canvasColor, null, null);
        }
        String color = background.color() == null ? canvasColor : background.color();
        AssetKind kind = background.image() != null
                ? AssetKind.IMAGE
                : background.video() != null ? AssetKind.VIDEO : null;
        if (kind == null) {
            return new ResolvedVideo.Background(color, null, null);
        }
        String url = override != null
                ? override
                : slots.get(kind).get(kind == AssetKind.IMAGE ? background.image() : background.video());
        return url == null
                ? new ResolvedVideo.Background(color, null, null)
                : new ResolvedVideo.Background(color, url, kind);
    }

    /** The default URL of the slot a background shows; null for a colour or a slot without one. */
    private static String defaultUrl(TemplateDefinition.Background background, TemplateDefinition.AssetSlots declared) {
        if (background == null) {
            return null;
        }
        if (background.image() != null) {
            return declared.of(AssetKind.IMAGE).get(background.image()).defaultUrl();
        }
        return background.video() == null ? null : declared.of(AssetKind.VIDEO).get(background.video()).defaultUrl();
    }

    /** A checked template names a known fit or none; anything else is drawn as {@code contain}. */
    /** A lottie layer (validated), its texts' placeholders filled and its images the URLs of their slots. */
    private static ResolvedVideo.Lottie lottie(TemplateDefinition.Layer layer, Map<String, String> fields,
            List<String> images, List<TemplateDefinition.AssetSlot> declared, double start, double end,
            double[] fades, double stretch) {
        Map<String, String> texts = new LinkedHashMap<>();
        texts(layer).forEach((key, text) -> {
            String filled = Placeholders.substitute(text, fields, true);
            if (filled != null && filled.length() > LottieFile.MAX_TEXT) {
                // refused at acceptance, not in the render: the engine draws at most this much in one text layer
                throw new TemplateResolutionException("the text of lottie layer '" + layer.motion() + "' for '" + key
                        + "' is longer than " + LottieFile.MAX_TEXT + " characters once its fields are filled");
            }
            texts.put(key, filled == null ? "" : filled);
        });
        Map<String, String> colors = new LinkedHashMap<>();
        if (layer.colors() != null) {
            layer.colors().fields().forEachRemaining(e -> colors.put(e.getKey(), e.getValue().asText()));
        }
        Map<String, String> urls = new LinkedHashMap<>();
        if (layer.images() != null) {
            layer.images().fields().forEachRemaining(e -> {
                String url = images.get(e.getValue().asInt());
                if (url != null) {
                    urls.put(e.getKey(), url);
                }
            });
        }
        return new ResolvedVideo.Lottie(layer.motion(), position(layer.x()), position(layer.y()), layer.width(),
                layer.height(), fit(layer.fit()), layer.speed() == null ? 1 : layer.speed(),
                Boolean.TRUE.equals(layer.loop()), texts, colors, urls,
                MotionKeys.stretched(layer.keyframes(), stretch), start, end, fades[0],
                fades[1]);
    }

    /** A lottie layer's {@code text} object as written, by text layer name or slot id. */
    private static Map<String, String> texts(TemplateDefinition.Layer layer) {
        Map<String, String> texts = new LinkedHashMap<>();
        if (layer.textValue() != null && layer.textValue().isObject()) {
            layer.textValue().fields().forEachRemaining(e -> texts.put(e.getKey(), e.getValue().asText()));
        }
        return texts;
    }

    /** True when an image a lottie layer takes is the request's, not its slot's default. */
    private static boolean personalImages(TemplateDefinition.Layer layer, List<String> images,
            List<TemplateDefinition.AssetSlot> declared) {
        if (layer.images() == null) {
            return false;
        }
        List<Integer> indexes = new ArrayList<>();
        layer.images().elements().forEachRemaining(index -> indexes.add(index.asInt()));
        return indexes.stream().anyMatch(i -> images.get(i) != null
                && !images.get(i).equals(declared.get(i).defaultUrl()));
    }

    private static PictureFit fit(String fit) {
        PictureFit known = PictureFit.ofWire(fit);
        return known == null ? PictureFit.CONTAIN : known;
    }

    private static ResolvedVideo.Audio audio(TemplateDefinition.Audio audio, double total) {
        AudioType type = audio == null ? AudioType.SILENCE : AudioType.ofWire(audio.type());
        if (type == AudioType.SILENCE) {
            return ResolvedVideo.Audio.silence();
        }
        if (type == AudioType.TONE) {
            return new ResolvedVideo.Audio(AudioType.TONE,
                    audio.frequency() == null ? DEFAULT_TONE_HZ : audio.frequency(),
                    audio.volume() == null ? DEFAULT_TONE_VOLUME : audio.volume(), null, 0);
        }
        double fadeOut = audio.fadeOut() == null ? DEFAULT_TRACK_FADE_OUT : audio.fadeOut();
        double fadeIn = audio.fadeIn() == null ? 0 : audio.fadeIn();
        return new ResolvedVideo.Audio(AudioType.TRACK, 0, audio.volume() == null ? 1.0 : audio.volume(), audio.url(),
                Math.min(fadeIn, total / 2), Math.min(fadeOut, total / 2),
                audio.duck() == null ? DEFAULT_DUCK : audio.duck());
    }

    private static String position(JsonNode value) {
        if (value == null || value.isNull()) {
            return "center";
        }
        return value.isIntegralNumber() ? Integer.toString(value.asInt()) : value.asText().toLowerCase(Locale.ROOT);
    }

    private static boolean isNumber(String position) {
        return !position.isEmpty() && (Character.isDigit(position.charAt(0)) || position.charAt(0) == '-');
    }

    public static String seconds(double value) {
        if (value == Math.rint(value)) {
            return Long.toString((long) value);
        }
        return String.format(Locale.ROOT, "%.2f", value).replaceAll("0+$", "");
    }
}
