import MapSnap
