# The figures of docs/performance.md, "Segment cache and progressive delivery", as a bar chart:
#   gnuplot bench/render/plot.gp   (writes docs/img/render-cache-stream.png; edit the data below after a new run)
set terminal pngcairo size 760,420 font "DejaVu Sans,10"
set output "docs/img/render-cache-stream.png"
set title "brand-story and greeting, 2-core Xeon, 2026-11-25 (medians; stream figures are p50 through the stack)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set ylabel "seconds"
set yrange [0:2.2]
set grid ytics
set key top right
$data << EOD
"render (engine)"              1.960   0.836
"to first segment"   0.470   0.872
"to video"   1.566   1.018
EOD
plot $data using 2:xtic(1) title "full render (greeting for the stream rows)", '' using 3 title "brand-story with its segment cache"
