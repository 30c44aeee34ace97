package io.pmedia.media.render.graph;

import static io.pmedia.media.render.ffmpeg.FilterGraph.number;
import static io.pmedia.media.render.ffmpeg.FilterGraph.value;

import java.util.List;

import io.pmedia.media.template.AudioType;
import io.pmedia.media.template.ResolvedVideo;

/** The sound's part of a {@link SegmentGraph}: the template's track, tone or silence, and the speech mixed over it. */
final class SoundMix {

    /** The sample rate of every sound the graph mixes and encodes. */
    static final int AUDIO_RATE = 48_000;

    private final SegmentGraph graph;

    SoundMix(SegmentGraph graph) {
        this.graph = graph;
    }

    /**
     * The sound: the template's track (ducked while speech plays), with every speech delayed to its start and
     * cut at its end, mixed without changing levels.
     */
    String audio() {
        List<ResolvedVideo.TimedSpeech> speeches = graph.video.speeches();
        if (speeches.isEmpty() || graph.speechInputs.isEmpty()) {
            return base();
        }
        String duration = number(graph.video.durationSeconds());
        StringBuilder base = new StringBuilder(base());
        ResolvedVideo.Audio audio = graph.video.audio();
        if (audio.type() == AudioType.TRACK && audio.duck() < 1) {
            List<String> spans = speeches.stream()
                    .map(s -> "between(t," + number(s.start()) + "," + number(s.end()) + ")").toList();
            base.append(",volume=volume=").append(number(audio.duck())).append(":enable=")
                    .append(value(String.join("+", spans)));
        }
        graph.chains.add(base.append("[base]").toString());
        StringBuilder mix = new StringBuilder("[base]");
        for (int i = 0; i < speeches.size(); i++) {
            ResolvedVideo.TimedSpeech speech = speeches.get(i);
            long delay = Math.round(speech.start() * 1000);
            graph.chains.add("[" + graph.speechInputs.get(i) + "]aformat=sample_rates=" + AUDIO_RATE
                    + ":channel_layouts=stereo,atrim=duration=" + number(speech.end() - speech.start())
                    + ",adelay=delays=" + delay + ":all=1[sp" + i + "]");
            mix.append("[sp").append(i).append(']');
        }
        return mix.append("amix=inputs=").append(speeches.size() + 1)
                .append(":duration=first:dropout_transition=0:normalize=0,atrim=duration=").append(duration)
                .toString();
    }

    private String base() {
        ResolvedVideo.Audio audio = graph.video.audio();
        String duration = number(graph.video.durationSeconds());
        return switch (audio.type()) {
            case TONE -> "sine=f=" + number(audio.frequency()) + ":r=" + AUDIO_RATE + ":d=" + duration
                    + ",volume=" + number(audio.volume()) + ",aformat=channel_layouts=stereo";
            case TRACK -> "[" + graph.sources.get(audio.url()).poll() + "]aformat=sample_rates=" + AUDIO_RATE
                    + ":channel_layouts=stereo,apad,atrim=duration=" + duration + ",volume="
                    + number(audio.volume())
                    + (audio.fadeIn() > 0 ? ",afade=t=in:st=0:d=" + number(audio.fadeIn()) : "")
                    + (audio.fadeOut() > 0
                            ? ",afade=t=out:st=" + number(graph.video.durationSeconds() - audio.fadeOut()) + ":d="
                                    + number(audio.fadeOut())
                            : "");
            case SILENCE -> "anullsrc=r=" + AUDIO_RATE + ":cl=stereo,atrim=duration=" + duration;
        };
    }
}
