# The figures of docs/performance.md, "Chunk cache (issue 25)", as a bar chart:
#   gnuplot bench/render/plot-chunks.gp   (writes docs/img/render-chunk-cache.png; edit the data below after a new run)
set terminal pngcairo size 760,420 font "DejaVu Sans,10"
set output "docs/img/render-chunk-cache.png"
set title "full vs chunk-cached render, 2-core EPYC, quiet, 2026-11-27, commit 24d4b5d (medians of 7)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set ylabel "seconds"
set yrange [0:7]
set grid ytics
set key top right
$data << EOD
"product-tour (0.22)"             6.196   1.372
"brand-story (0.29)"              1.991   0.576
"greeting (not cached; 1.02)"     1.641   1.676
EOD
plot $data using 2:xtic(1) title "full render", '' using 3 title "chunk-cached render (warm)"
