// Classifier tests arrive with the classifier.
