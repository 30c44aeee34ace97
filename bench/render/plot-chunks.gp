# The figures of docs/performance.md, "Chunk cache (issue 25)", as a bar chart:
#   gnuplot bench/render/plot-chunks.gp   (writes docs/img/render-chunk-cache.png; edit the data below after a new run)
set terminal pngcairo size 760,420 font "DejaVu Sans,10"
set output "docs/img/render-chunk-cache.png"
set title "full vs chunk-cached render, 2-core EPYC shared with other builds, 2026-11-27 (medians of 5)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set ylabel "seconds"
set yrange [0:24]
set grid ytics
set key top right
$data << EOD
"product-tour"   20.733   6.718
"brand-story"                     6.693   2.240
"greeting (not cached)"           5.691   3.658
EOD
plot $data using 2:xtic(1) title "full render", '' using 3 title "chunk-cached render (warm)"
