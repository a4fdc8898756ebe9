import Motus
print("motus")
