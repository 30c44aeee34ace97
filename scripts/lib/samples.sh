# shellcheck shell=bash
# Media of the sample templates, generated here with FFmpeg's test sources and drawn shapes (nothing is downloaded)
# and stored under the demo vendor's inputs prefix, where its renders may read them. Sample template files name them
# with @PMEDIA_SAMPLE_ASSETS@ (the store URL of that prefix) and @PMEDIA_DEMO_CLIENT_ID@, filled in at registration.

SAMPLE_MEDIA="$STATE/samples"

# The sample media, made once and kept in .pmedia/samples (up makes them while Maven builds). product-tour: a 30 s
# 1280x720 30 fps background clip (a slow gradient, a faint grid, two shapes drifting across) and a 30 s soundtrack
# (two tones under a tremolo).
generate_sample_media() {
  local dir="$SAMPLE_MEDIA/product-tour"
  mkdir -p "$dir"
  if [ ! -s "$dir/background.mp4" ]; then
    info "generating the product-tour background clip (FFmpeg test sources; once, kept in .pmedia/samples)"
    ffmpeg -hide_banner -loglevel error -nostdin -y \
      -f lavfi -i "gradients=s=320x180:r=30:d=30:c0=0x0b132b:c1=0x1c2541:c2=0x3a506b:nb_colors=3:speed=0.015" \
      -f lavfi -i "color=c=0x6fffe9@0.5:s=220x130:r=30,format=yuva420p" \
      -f lavfi -i "color=c=0xffffff@0.25:s=120x120:r=30,format=yuva420p" \
      -filter_complex "[0]scale=1280:720:flags=bicubic,drawgrid=w=160:h=160:t=1:c=white@0.08[g];[g][1]overlay=x='mod(t*160,1500)-220':y=440:shortest=1[a];[a][2]overlay=x='1160-mod(t*90,1300)':y='140+40*sin(t)':shortest=1,format=yuv420p" \
      -c:v libx264 -preset veryfast -crf 26 -g 60 -an -movflags +faststart "$dir/background.part.mp4" &&
      mv -f "$dir/background.part.mp4" "$dir/background.mp4" || die "generating the product-tour clip failed"
  fi
  if [ ! -s "$dir/soundtrack.m4a" ]; then
    ffmpeg -hide_banner -loglevel error -nostdin -y \
      -f lavfi -i "sine=frequency=220:duration=30" -f lavfi -i "sine=frequency=330:duration=30" \
      -filter_complex "[0][1]amix=inputs=2,tremolo=f=2:d=0.4,volume=0.5,aformat=channel_layouts=stereo" \
      -c:a aac -b:a 96k -f mp4 "$dir/soundtrack.part.m4a" &&
      mv -f "$dir/soundtrack.part.m4a" "$dir/soundtrack.m4a" || die "generating the product-tour soundtrack failed"
  fi
}

# Stores the sample media under inputs/<demo client id>/samples/ (signed PUTs, idempotent) and prints that prefix's
# store URL.
store_sample_media() { # client-id
  local client="$1" file key code
  generate_sample_media
  for file in "$SAMPLE_MEDIA"/product-tour/background.mp4 "$SAMPLE_MEDIA"/product-tour/soundtrack.m4a; do
    key="inputs/$client/samples/product-tour/$(basename "$file")"
    code="$(s3_curl -o /dev/null -w '%{http_code}' --max-time 60 -T "$file" "$S3_ENDPOINT/$S3_BUCKET/$key" || true)"
    [ "$code" = 200 ] || die "storing the sample media $key failed: HTTP ${code:-none}"
  done
  printf '%s\n' "$S3_ENDPOINT/$S3_BUCKET/inputs/$client/samples"
}

# A sample template file with its placeholders filled in.
sample_template() { # file client-id assets-url
  sed -e "s|@PMEDIA_DEMO_CLIENT_ID@|$2|g" -e "s|@PMEDIA_SAMPLE_ASSETS@|$3|g" "$1"
}
