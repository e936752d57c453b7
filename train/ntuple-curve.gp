# The README's Connect-4 n-tuple learning curve, from the CSV that oxo-train --curve wrote:
#   oxo-train --algo ntuple --game connect4 --workers 2 --episodes 1000000 --eval-every 50000 \
#       --no-defend --average 0 --curve train/ntuple-connect4.csv -o connect4-7-6-ntuple-plain.oxm
#   gnuplot train/ntuple-curve.gp
set terminal svg size 720,460 font "sans,12" background rgb "white"
set output "train/ntuple-connect4.svg"
set datafile separator ","
set key below
set xlabel "self-play games"
set ylabel "share"
set yrange [0:1.01]
set format x "%.0s%c"
set grid
set title "n-tuple TD(λ) on Connect-4 7x6 (70 8-tuples, a weight set a player, 30% exploring starts, 2 workers, seed 1)"
plot "train/ntuple-connect4.csv" every ::1 using 1:4 with linespoints lw 2 title "moves keeping the value (1,000 judged positions)", \
     "" every ::1 using 1:($8/1000) with lines lw 1 title "wins vs random as X", \
     "" every ::1 using 1:($11/1000) with lines lw 1 title "wins vs random as O", \
     "" every ::1 using 1:($16/$15) with linespoints lw 2 title "games won as X against the perfect player (200)", \
     "" every ::1 using 1:(1 - $6/$15) with lines lw 1 dt 2 title "games not lost as X against it"
