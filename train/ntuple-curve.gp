# The README's Connect-4 n-tuple learning curves, from the CSVs that oxo-train --curve wrote: the
# defaults (every tuple's walk from a whole line, the second player defending, the weights averaged
# over the last 30%: the points from 700,000 on grade the mean of the weights so far, the network
# the run is building, the points before it the weights of the moment; the workers' copies merged
# every 2,000 games; each game learned again once from a ring of each worker's last 2,000), and the
# plain learner (GBG's walks, no defence, the last weights, rounds of 1,000 games, no replay),
# dashed:
#   oxo-train --algo ntuple --game connect4 --workers 2 --episodes 1000000 --eval-every 50000 \
#       --curve train/ntuple-connect4-defaults.csv -o connect4-7-6-ntuple.oxm
#   oxo-train --algo ntuple --game connect4 --workers 2 --episodes 1000000 --eval-every 50000 \
#       --tuple-lines 0 --no-defend --average 0 --sync 1000 --replay 0 --curve train/ntuple-connect4.csv \
#       -o connect4-7-6-ntuple-plain.oxm
#   gnuplot train/ntuple-curve.gp
set terminal svg size 760,540 font "sans,12" background rgb "white"
set output "train/ntuple-connect4.svg"
set datafile separator ","
set key below
set xlabel "self-play games"
set ylabel "share"
set yrange [0:1.01]
set format x "%.0s%c"
set grid
set title "n-tuple TD(λ) on Connect-4 7x6, seed 1: the defaults (solid: tuples from lines, replay; from 700k, the mean of\nthe weights so far), the plain learner (dashed)"
plot "train/ntuple-connect4-defaults.csv" every ::1 using 1:4 with linespoints lw 2 lc rgb "#1f77b4" title "moves keeping the value (1,000 judged positions)", \
     "" every ::1 using 1:($16/$15) with linespoints lw 2 lc rgb "#d62728" title "games won as X against the perfect player (200)", \
     "" every ::1 using 1:(1 - $6/$15) with lines lw 1 lc rgb "#d62728" dt 3 title "games not lost as X against it", \
     "" every ::1 using 1:($8/1000) with lines lw 1 lc rgb "#2ca02c" title "wins vs random as X", \
     "train/ntuple-connect4.csv" every ::1 using 1:4 with lines lw 1 lc rgb "#1f77b4" dt 2 title "plain learner: moves keeping the value", \
     "" every ::1 using 1:($16/$15) with lines lw 1 lc rgb "#d62728" dt 2 title "plain learner: games won as X against the perfect player"
